// What a correct system ends with, from the parameters alone: the sales applied one by
// one in list order, each refused when it does not fit in the stock left.
import type { Params } from '@racelab/shared';
import { intParam } from '../types.js';

export interface SalesOutcome {
  /** Stock left after every sale that fits. */
  stock: number;
  /** Sales that did not fit and were refused. */
  refused: number;
  /** Sales taken off the stock. */
  applied: number;
}

/** The list of sales: one admin process per sale, admin-1 first. */
export function salesParam(params: Params): number[] {
  const value = params.sales;
  if (!Array.isArray(value)) throw new Error("parameter 'sales' is not a list");
  return value;
}

/** The quantity admin-k sells (admin-1 sells the first item of the list). */
export function quantityOf(params: Params, workerId: string): number {
  const quantity = salesParam(params)[adminIndex(workerId)];
  if (quantity === undefined) throw new Error(`no sale for ${workerId}`);
  return quantity;
}

/** admin-1 -> 0. */
export function adminIndex(workerId: string): number {
  return Number(workerId.slice('admin-'.length)) - 1;
}

export function adminId(index: number): string {
  return `admin-${index + 1}`;
}

/** Applies the sales in list order, refusing any that would take the stock below zero. */
export function correctOutcome(params: Params): SalesOutcome {
  let stock = intParam(params, 'initialStock');
  let refused = 0;
  for (const quantity of salesParam(params)) {
    if (quantity <= stock) stock -= quantity;
    else refused++;
  }
  return { stock, refused, applied: salesParam(params).length - refused };
}

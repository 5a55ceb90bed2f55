// Messages between the bare baseline's parent and its worker processes.

export interface BareJob {
  keyPrefix: string;
  schema: string;
  workerId: string;
  date: string;
  leaseMs: number;
  workMs: number;
}

export type ToBare = { kind: 'go'; job: BareJob } | { kind: 'released'; barrier: string };
export type FromBare = { kind: 'ready' } | { kind: 'barrier'; name: string } | { kind: 'done'; sent: boolean };

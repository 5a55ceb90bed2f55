// lost-update: two admins sell from the same stock at once; each reads it, subtracts its
// sale and saves. Each variant is one way to write the sale.
import { EVERY_WORKER_FINISHES } from '../kit/scheduleAssumptions.js';
import { defineScenario, intParam } from '../types.js';
import { SEEN_IN_THE_WILD } from './sources.js';
import { adminBackends, createAdmin, nameSession, type Admin } from './admin.js';
import { createProducts, measureProducts, observeProducts } from './productsTable.js';
import { adminId, adminIndex, correctOutcome, salesParam } from './salesPlan.js';
import atomicGuardInApp from './mutants/atomicGuardInApp.js';
import atomicNoGuard from './mutants/atomicNoGuard.js';
import optimisticNoRetry from './mutants/optimisticNoRetry.js';
import optimisticNoVersionCheck from './mutants/optimisticNoVersionCheck.js';
import selectForUpdateNoCheck from './mutants/selectForUpdateNoCheck.js';
import selectWithoutForUpdate from './mutants/selectWithoutForUpdate.js';
import atomicUpdate from './variants/atomicUpdate.js';
import optimisticVersion from './variants/optimisticVersion.js';
import readModifyWrite from './variants/readModifyWrite.js';
import selectForUpdate from './variants/selectForUpdate.js';
import { POSTGRES_STORE } from '@racelab/shared';
import { doneLatch } from '../../worker/latches.js';
import { EXERCISE } from './exercise.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export default defineScenario<Admin>({
  id: 'lost-update',
  title: 'Lost update',
  summary: 'Stock 10; admin A sells 3 while admin B sells 2, and B read the stock before A wrote.',
  source: import.meta.url,
  teachingOrder: 3,
  seenInTheWild: SEEN_IN_THE_WILD,
  exercise: EXERCISE,
  params: [
    {
      kind: 'int',
      name: 'initialStock',
      label: 'Initial stock',
      unit: 'units',
      help: 'Units in stock before any sale.',
      min: 0,
      max: 100_000,
      default: 10,
    },
    {
      kind: 'int-list',
      name: 'sales',
      label: 'Sales',
      unit: 'units',
      help: 'One admin per sale, admin-1 first. Every admin reads before any writes; they write in list order.',
      min: 1,
      max: 1000,
      minItems: 1,
      maxItems: 20,
      default: [3, 2],
    },
    {
      kind: 'int',
      name: 'thinkMs',
      label: 'Think time',
      unit: 'ms',
      help: 'How long each admin takes between reading the stock and saving the sale.',
      min: 0,
      max: 5000,
      default: 200,
    },
  ],
  metrics: [
    { name: 'finalStock', label: 'Final stock', source: "PostgreSQL: the product row's stock after the run" },
    {
      name: 'expectedStock',
      label: 'Expected stock',
      source: 'parameters: the sales applied in list order, each refused when it does not fit',
    },
    {
      name: 'retries',
      label: 'Retries',
      source:
        'PostgreSQL: UPDATEs of the product that changed no row and that the same session followed with another (a statement trigger logs each one)',
    },
    {
      name: 'refusedSales',
      label: 'Refused sales',
      source: "PostgreSQL: admins none of whose UPDATEs changed the product row (from the trigger's log; an admin that sent none counts)",
    },
  ],
  variants: [readModifyWrite, atomicUpdate, optimisticVersion, selectForUpdate],
  // The expected stock counts every sale: an admin an explored schedule kills before its sale
  // commits never makes it, which loses nothing.
  assumptions: [EVERY_WORKER_FINISHES('every admin lives to finish its sale')],
  mutants: [atomicNoGuard, atomicGuardInApp, optimisticNoVersionCheck, optimisticNoRetry, selectWithoutForUpdate, selectForUpdateNoCheck],
  // Three admins on a larger stock, and two whose sales together exceed the stock.
  stabilityParams: [
    { initialStock: 100, sales: [10, 20, 30], thinkMs: 150 },
    { initialStock: 5, sales: [4, 3], thinkMs: 300 },
  ],

  workers: (params) => salesParam(params).map((_, i) => adminId(i)),
  watchedKeys: () => [],
  // Admins write one after another, each after its think time; a second apiece is ample.
  deadlineMs: (params) => 15_000 + salesParam(params).length * (intParam(params, 'thinkMs') + 1000),

  async setup(stores, params) {
    await createProducts(stores, intParam(params, 'initialStock'));
    return {};
  },

  observe: async (stores) => ({ [POSTGRES_STORE]: await observeProducts(stores) }),

  async measure(stores, params) {
    const truth = await measureProducts(
      stores,
      salesParam(params).map((_, i) => adminId(i)),
    );
    return {
      finalStock: truth.stock,
      expectedStock: correctOutcome(params).stock,
      retries: truth.retries,
      refusedSales: truth.refused,
    };
  },

  expectations(params) {
    const { stock, refused } = correctOutcome(params);
    return [
      {
        id: 'stock-matches-sales',
        metric: 'finalStock',
        op: 'eq',
        value: stock,
        text: `the stock ends at ${stock}: every sale that fits is taken off, none is lost`,
      },
      {
        id: 'refuses-what-does-not-fit',
        metric: 'refusedSales',
        op: 'eq',
        value: refused,
        text:
          refused === 0
            ? 'no sale is refused: every sale fits'
            : `${plural(refused, 'sale')} that would oversell the stock ${refused === 1 ? 'is' : 'are'} refused`,
      },
    ];
  },

  async work(ctx, variant) {
    await nameSession(ctx);
    await ctx.barrier('sessions-named'); // so every admin can find the others' sessions
    const backends = await adminBackends(ctx);
    // Admins start in list order: admin-k once admin-(k-1) has read (or holds the row lock).
    const index = adminIndex(ctx.workerId);
    if (index > 0) await ctx.waitFor(`read:${adminId(index - 1)}`, doneLatch(adminId(index - 1)));
    const { admin, settle } = createAdmin(ctx, backends);
    await variant.run(admin);
    await ctx.checkpoint('sale-done'); // a fault here kills the admin before it says anything more
    ctx.signal(`read:${ctx.workerId}`); // a variant that never thinks must not hold the next one up
    await settle(); // a blocked admin's read comes after our commit: wait for it before exiting
  },
});

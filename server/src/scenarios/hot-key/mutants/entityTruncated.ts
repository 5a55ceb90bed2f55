// per-entity-key, with the entity's name cut short in the key.
import { mutantOf } from '../../types.js';
import { LOCK_KEY } from '../keys.js';
import perEntityKey from '../variants/perEntityKey.js';

export default mutantOf(perEntityKey, {
  id: 'entity-truncated',
  mistake: 'keeps only the first 10 characters of the entity: customer-1 and customer-10 share a key',
  failsAt: { jobs: 10, entities: 10, workers: 2, jobMs: 100 },
  title: 'One lock key per entity, the name cut short',
  summary:
    'The key names the entity, cut to 10 characters to keep keys short. Up to nine customers it is right; at ten, customer-10 waits for customer-1.',
  source: import.meta.url,
  steps: {
    // The mistake: a name cut short is no longer unique; two customers queue on one key.
    lockName: (job) => `${LOCK_KEY}:${job.entity.slice(0, 10)}`,
  },
});

// optimistic-version, with the version bumped but never compared.
import { mutantOf } from '../../types.js';
import optimisticVersion from '../variants/optimisticVersion.js';

export default mutantOf(optimisticVersion, {
  id: 'optimistic-version-no-check',
  mistake: 'the UPDATE bumps the version but does not check it in its WHERE',
  failsAt: {},
  title: 'Optimistic, without the version in the WHERE',
  summary: "The version is read and incremented but never compared: B's write matches the row anyway and overwrites A's sale.",
  source: import.meta.url,
  steps: {
    // The mistake: the next version is written, the current one never compared: this matches the row whoever wrote since.
    write: async (admin, left, version) =>
      (await admin.pg.query('update products set stock = $2, version = $3 + 1 where id = $1', [admin.productId, left, version]))
        .rowCount === 1,
  },
});

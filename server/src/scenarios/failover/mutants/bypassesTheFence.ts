// pg-fence, with one write that goes around the fenced path: an unguarded autosave before the fenced UPDATE.
import { writeAroundTheFence } from '../../kit/writeAroundTheFence.js';
import pgFence from '../variants/pgFence.js';

export default writeAroundTheFence(pgFence, import.meta.url);

// fenced, with one write that goes around the fenced path: an unguarded autosave before the fenced UPDATE.
import { writeAroundTheFence } from '../../kit/writeAroundTheFence.js';
import fenced from '../variants/fenced.js';

export default writeAroundTheFence(fenced, import.meta.url);

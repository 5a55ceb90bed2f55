import { LIVE } from '../model/cursor.js';
import type { CursorSlice, SliceCreator } from './types.js';

export const createCursorSlice: SliceCreator<CursorSlice> = (set) => ({
  cursor: LIVE,
  setCursor: (cursor) => set({ cursor }),
});

import type { SliceCreator, UiSlice } from './types.js';

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  presenter: false,
  workshop: false,
  theme: 'dark',
  helpOpen: false,
  notice: null,
  scorecard: false,
  selectedEvent: null,
  setSelectedEvent: (selectedEvent) => set({ selectedEvent }),
  setNotice: (notice) => set({ notice }),
  setScorecard: (scorecard) => set({ scorecard }),
  setPresenter: (presenter) => set({ presenter }),
  setWorkshop: (workshop) => set({ workshop }),
  setTheme: (theme) => set({ theme }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
});

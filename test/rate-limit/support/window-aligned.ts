/** 2026-11-21T10:00:00Z: a multiple of every window length the tests use (1 s .. 1 h), where their clocks start. */
export const WINDOW_ALIGNED_EPOCH_MS = Date.UTC(2026, 10, 21, 10, 0, 0);

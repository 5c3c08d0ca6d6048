/** The CSV export's limits (contract section 8), shared by the server and the Export CSV control. */
export const LIVE_EXPORT_MAX_ROWS = 10_000;

/** The periods the analytics page offers: the last 7, 30 or 90 days, or days the viewer chooses. */
export const ANALYTICS_RANGES = ["7", "30", "90", "custom"] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export const ANALYTICS_RANGE_LABELS: Record<AnalyticsRange, string> = {
  "7": "Last 7 days",
  "30": "Last 30 days",
  "90": "Last 90 days",
  custom: "Custom range",
};

/** What the primary and the worker processes of one node say to each other (docs/scaling.md, "Every core"). */
export const METRICS_REQUEST = 'rebound:metrics-request';
export const METRICS_ANSWER = 'rebound:metrics-answer';

export interface MetricsRequest {
  type: typeof METRICS_REQUEST;
  id: number;
}

export interface MetricsAnswer {
  type: typeof METRICS_ANSWER;
  id: number;
  text?: string;
  error?: string;
}

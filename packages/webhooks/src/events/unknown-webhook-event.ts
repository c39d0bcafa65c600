/**
 * A verified delivery body whose `event` this version of the package does not know: a newer
 * event of the service. Handled by `onUnknownEvent`.
 */
export interface UnknownWebhookEvent {
  readonly event: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

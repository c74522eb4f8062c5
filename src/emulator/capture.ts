/**
 * Capture files of streaming metadata (docs/service.md#streaming-metadata-and-captures): NDJSON, one message
 * per line in the feed's envelope `{"<kind>":{…}}`: an instrumentResponse, then its definitions, with
 * optional noise between.
 */
import { exchangeEntries } from './instruments.js';

/** Message kinds a capture may interleave with the definitions; the count check ignores them. */
export type CaptureExtraKind = 'heartBeat' | 'subscriptionResponse' | 'marketSnapshot';

/** What to capture. */
export interface CaptureOptions {
  exchange: string;
  /** Definitions actually written. */
  count: number;
  /** `numberOfDefinitions` announced; default `count` (a different value makes a mismatch). */
  declared?: number;
  /** `status.result`; default SUCCESS. */
  status?: string;
  /** `status.message`, sent with a non-SUCCESS status. */
  message?: string;
  /** Kinds inserted after every third definition. */
  extraKinds?: CaptureExtraKind[];
  correlationId?: string;
  /** Embeds the first definition in the response too (newer protocol versions). */
  embedded?: boolean;
  vendorPrefix?: string;
}

function extraMessage(kind: CaptureExtraKind, index: number, exchange: string): string {
  switch (kind) {
    case 'heartBeat':
      return JSON.stringify({ heartBeat: { transactionTime: String(1741900000000000000n + BigInt(index)) } });
    case 'subscriptionResponse':
      return JSON.stringify({
        subscriptionResponse: { correlationId: '7', status: { result: 'SUCCESS' }, exchange },
      });
    case 'marketSnapshot':
      return JSON.stringify({
        marketSnapshot: { marketId: '4917813436427451121', transactionTime: '1741900000000000000' },
      });
  }
}

/** The capture's lines (no line ends): one instrumentResponse, its definitions, extras in between. */
export function generateCapture(options: CaptureOptions): string[] {
  const { exchange, count } = options;
  const prefix = options.vendorPrefix ?? 'vendor';
  const entries = exchangeEntries(exchange, count, prefix);
  const declared = options.declared ?? count;
  const status: Record<string, string> = { result: options.status ?? 'SUCCESS' };
  if (options.message) status['message'] = options.message;
  const response: Record<string, unknown> = { correlationId: options.correlationId ?? '7', status };
  // numberOfDefinitions 0 is the protobuf default, so it is left out (docs/service.md#json-conventions)
  if (declared) response['numberOfDefinitions'] = declared;
  response['exchange'] = exchange;
  if (options.embedded && entries[0]) response['instrumentDefinition'] = entries[0];
  const lines = [JSON.stringify({ instrumentResponse: response })];
  entries.forEach((entry, i) => {
    lines.push(JSON.stringify({ instrumentDefinition: entry }));
    if (i % 3 === 2) for (const kind of options.extraKinds ?? []) lines.push(extraMessage(kind, i, exchange));
  });
  return lines;
}

import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import {
  announcesHtml,
  type BodyKind,
  refuseHtmlStart,
  startsAsHtml,
} from '../../src/core/http/html-page.js';

const PAGE = '<!DOCTYPE html>\n<html><body>Scheduled maintenance</body></html>\n';
const LIST = '<?xml version="1.0" encoding="utf-8"?>\n<exchanges><exchange id="CME"/></exchanges>\n';

describe('html-page: one detection of a maintenance page', () => {
  it.each<[BodyKind, string, boolean]>([
    ['csv', '<html>', true],
    ['csv', '  <?xml version="1.0"?><error/>', true],
    ['csv', 'ESM25,2025-03-13 09:30:00.000,1,@,5600', false],
    ['json', PAGE, true],
    ['json', '[{"marketId":1}]', false],
    ['xml', PAGE, true],
    ['xml', '<?xml version="1.0"?>\n<html lang="en">', true],
    ['xml', LIST, false],
  ])('%s body starting %j: HTML %s', (kind, head, html) => expect(startsAsHtml(kind, head)).toBe(html));

  it('text/html is believed on the reference hosts, never on a data endpoint', () => {
    const headers = { 'content-type': 'text/html; charset=utf-8' };
    expect([
      announcesHtml('csv', headers),
      announcesHtml('json', headers),
      announcesHtml('xml', headers),
    ]).toEqual([false, true, true]);
  });

  it('the check stage passes a body through byte for byte, or fails with MDGET_HTTP and the URL', async () => {
    const url = new URL('http://127.0.0.1:1/exchanges.php');
    const chunks = (body: string) => Readable.from(body.match(/[\s\S]{1,7}/g)!.map((c) => Buffer.from(c)));
    const big = `${LIST}${'<exchange id="X"/>\n'.repeat(100)}`;
    expect(await text(chunks(big).pipe(refuseHtmlStart('xml', url, [])))).toBe(big);
    expect(await text(chunks(LIST).pipe(refuseHtmlStart('xml', url, [])))).toBe(LIST);
    const page = chunks(PAGE).pipe(refuseHtmlStart('xml', url, []));
    await expect(text(page)).rejects.toMatchObject({
      code: 'MDGET_HTTP',
      status: 200,
      message: 'server sent an HTML page instead of data (maintenance?): http://127.0.0.1:1/exchanges.php',
    });
  });
});

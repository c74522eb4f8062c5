import { describe, expect, it } from 'vitest';
import { redactText, redactUrl } from '../../src/core/model/redact.js';

describe('redaction', () => {
  it.each([
    [
      'http://h/q.ashx?username=bob&password=s3cret&symbol=A%2AB',
      'http://h/q.ashx?username=***&password=***&symbol=A%2AB',
    ],
    ['http://h/q.ashx?symbol=X&PassWord=z', 'http://h/q.ashx?symbol=X&PassWord=***'],
    ['http://u:pw@h/x', 'http://***:***@h/x'],
    ['http://h/x?symbol=Y', 'http://h/x?symbol=Y'],
  ])('redactUrl(%s)', (input, expected) => expect(redactUrl(input)).toBe(expected));

  it('redacts URL userinfo in text, and leaves secrets under 4 characters to the parameter rules', () => {
    expect(redactText('see http://bob:pw@h.test/x', [])).toBe('see http://***@h.test/x');
    expect(redactText('incomplete http://h/q?password=p', ['p'])).toBe('incomplete http://h/q?password=***');
  });

  it('removes every form of a secret and any credential parameter from text', () => {
    const secret = 'p@ss w+rd/1';
    const text = `failed: http://h/q?username=bob&password=${encodeURIComponent(secret)} raw=${secret} form=p%40ss+w%2Brd%2F1`;
    const out = redactText(text, [secret]);
    expect(out).not.toContain('bob');
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).not.toContain('p%40ss+w%2Brd%2F1');
  });
});

import { describe, expect, it } from 'vitest';
import { checkProxyUrl, proxyRoute, proxySecrets, proxySettingsOf } from '../../src/core/http/proxy-route.js';
import { redactText } from '../../src/core/model/redact.js';

const P = 'http://proxy:3128';

describe('proxyRoute: which proxy a URL goes through (curl rules)', () => {
  it.each([
    ['http://data.example.com/x', {}, undefined, undefined],
    ['http://data.example.com/x', { http: P }, P, undefined],
    ['https://data.example.com/x', { http: P }, undefined, undefined], // no fallback from https to http's proxy
    ['https://data.example.com/x', { https: P }, P, undefined],
    ['http://data.example.com/x', { http: P, noProxy: 'example.com' }, undefined, 'example.com'],
    ['http://example.com/x', { http: P, noProxy: '.example.com' }, undefined, '.example.com'],
    ['http://data.example.com/x', { http: P, noProxy: '*.example.com' }, undefined, '*.example.com'],
    ['http://notexample.com/x', { http: P, noProxy: 'example.com' }, P, undefined],
    ['http://data.example.com/x', { http: P, noProxy: '*' }, undefined, '*'],
    [
      'http://data.example.com:8080/x',
      { http: P, noProxy: 'example.com:8080' },
      undefined,
      'example.com:8080',
    ],
    ['http://data.example.com/x', { http: P, noProxy: 'example.com:8080' }, P, undefined],
    ['https://data.example.com/x', { https: P, noProxy: 'example.com:443' }, undefined, 'example.com:443'],
    ['http://127.0.0.1:9/x', { http: P, noProxy: 'localhost, 127.0.0.1' }, undefined, '127.0.0.1'],
    ['http://10.1.2.3/x', { http: P, noProxy: '10.0.0.0/8' }, undefined, '10.0.0.0/8'],
    ['http://11.1.2.3/x', { http: P, noProxy: '10.0.0.0/8' }, P, undefined],
    ['http://1.2.3.4/x', { http: P, noProxy: '3.4' }, P, undefined], // an IP is no domain
    ['http://[::1]:8/x', { http: P, noProxy: '::1' }, undefined, '::1'],
    ['http://[::1]:8/x', { http: P, noProxy: '[::1]:8' }, undefined, '[::1]:8'],
    ['http://DATA.Example.COM/x', { http: P, noProxy: 'EXAMPLE.com' }, undefined, 'EXAMPLE.com'],
  ] as const)('%s with %o → %s', (url, settings, proxy, bypass) => {
    const route = proxyRoute(new URL(url), settings);
    expect([route.proxy, route.bypass]).toEqual([proxy, bypass]);
  });
});

describe('checkProxyUrl', () => {
  it.each([
    ['proxy:3128', 'http://proxy:3128'],
    ['http://proxy:3128/', 'http://proxy:3128'],
    ['https://u:p%40ss@proxy:3128', 'https://u:p%40ss@proxy:3128'],
  ])('%s → %s', (value, out) => expect(checkProxyUrl(value, '--proxy')).toBe(out));

  it.each([
    ['socks5://proxy:1080', /socks5:\/\/ proxies are not supported/],
    ['http://proxy:3128/path', /must not carry a path or query/],
    ['http://[::1', /is not a URL/],
  ])('refuses %s naming the option, usage error', (value, message) => {
    expect(() => checkProxyUrl(value, '--proxy')).toThrow(message);
    expect(() => checkProxyUrl(value, '--proxy')).toThrow(expect.objectContaining({ code: 'MDGET_USAGE' }));
  });

  it('never shows the password of a refused URL', () => {
    expect(() => checkProxyUrl('ftp://user:Secret99@proxy', 'HTTPS_PROXY')).toThrow(
      "HTTPS_PROXY 'ftp://***:***@proxy/'",
    );
  });
});

describe('proxy credentials are secrets', () => {
  it('the decoded password joins the secrets, so every message is redacted of it', () => {
    const settings = proxySettingsOf('http://agent:S%3Acret99@proxy:3128');
    expect(settings).toEqual({
      http: 'http://agent:S%3Acret99@proxy:3128',
      https: 'http://agent:S%3Acret99@proxy:3128',
    });
    const secrets = proxySecrets(settings);
    expect(secrets).toEqual(['S:cret99', 'S:cret99']);
    expect(redactText('failed with S:cret99 and S%3Acret99', secrets)).toBe('failed with *** and ***');
  });
});

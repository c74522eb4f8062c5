import { describe, expect, it } from 'vitest';
import { escapeHiveValue, expandTemplate } from '../../src/core/plan/templates.js';

describe('expandTemplate', () => {
  it.each([
    // a Hive folder: escaped as Hive's FileUtils.escapePathName does, decoded back by readers
    ['lake/symbol={symbol}/date={date}/part.parquet', 'lake/symbol=ES%2A1/date=2025-03-10/part.parquet'],
    // elsewhere: made safe as a file-name part
    ['lake/{symbol}/{date}.csv', 'lake/ES_1/2025-03-10.csv'],
    // the file name is no Hive partition, even when named key=...
    ['lake/date={date}-{symbol}.csv', 'lake/date=2025-03-10-ES_1.csv'],
  ])('%s', (template, path) => {
    expect(expandTemplate(template, { symbol: 'ES*1', date: '2025-03-10' })).toBe(path);
  });

  it('escapes exactly the characters Hive escapes, in upper-case hex', () => {
    expect(escapeHiveValue('a"#%\'*/:=?\\{[]^\u007f\u0001b')).toBe(
      'a%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%5B%5D%5E%7F%01b',
    );
    expect(escapeHiveValue('ES.M25 <|>} é')).toBe('ES.M25 <|>} é');
    expect(escapeHiveValue('')).toBe('__HIVE_DEFAULT_PARTITION__');
  });
});

/**
 * Synthetic instrument definitions in the full schema (`instrumentsSchema=full`): every field of
 * docs/service.md#instrument-fields that applies to the kind, about 1.2 KB each, so
 * `instrumentsBigCount=200000` makes a file of about 230 MiB like the real large exchanges. Written as JSON
 * text, not built as objects and stringified: a 230 MiB file of objects spends most of its time collecting
 * garbage. No field is at its default (0, "", false, []): the JSON mapping omits those.
 */

const KINDS = ['FUTURE', 'OPTION', 'SPREAD', 'EQUITY'] as const;
const MONTHS = 'FGHJKMNQUVXZ';
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Above 2^53, so a float would round them (docs/service.md#json-conventions). */
const ID_BASE = 6917529027641081856n;
const MS_PER_DAY = 86_400_000;
/** 2024-01-01 and 2025-03-13 as day numbers: creation and update times of the records. */
const CREATED_DAY = 19723;
const UPDATED_DAY = 20160;

const id = (index: number): string => String(ID_BASE + BigInt(index));
const millis = (day: number): string => String(day * MS_PER_DAY);
/** UTC nanoseconds, 19 digits. */
const nanos = (day: number, extraMs: number): string => `${day * MS_PER_DAY + extraMs}000000`;
const dayOf = (year: number, month: number, day: number): number =>
  Math.floor(Date.UTC(year, month - 1, day) / MS_PER_DAY);
const event = (type: string, day: number): string => `{"type":"${type}","date":"${millis(day)}"}`;

/**
 * A writer of the full-schema entries of one exchange: `(index) => JSON text` of its index-th entry.
 * The exchange id and the vendor prefix go through JSON.stringify once, as they are option text.
 */
export function fullEntryWriter(exchange: string, prefix: string): (index: number) => string {
  const vendorKeys =
    `${JSON.stringify(`${prefix}ExchangeCode`)}:"Z",${JSON.stringify(`${prefix}BaseCode`)}:"A",` +
    `${JSON.stringify(`${prefix}Exchange`)}:${JSON.stringify(exchange)}`;
  const mic = JSON.stringify(`X${exchange}`);
  return (index) => {
    const kind = KINDS[index % KINDS.length] ?? 'FUTURE';
    const root = `Z${String.fromCharCode(65 + (Math.floor(index / 4) % 26))}${Math.floor(index / 104) % 100}`;
    const month = (index % 12) + 1;
    const monthCode = MONTHS[month - 1] ?? 'F';
    const year = 2025 + (index % 3);
    const code = `${root}${monthCode}${year % 10}`;
    const expiryDay = dayOf(year, month, 15);
    const channel = 1 + (index % 12);
    // options and spreads without a book of their own: their book fields are at the default, omitted
    const book =
      kind === 'FUTURE' || kind === 'EQUITY'
        ? '"supportBookTypes":["PRICE_LEVEL_DEPTH"],"bookDepth":10,'
        : '';
    const head = `{"marketId":"${id(index)}","instrumentType":"${kind}",${book}"vendorId":"VENDOR"`;
    const times =
      `"recordCreateTime":"${nanos(CREATED_DAY, index)}",` +
      `"recordUpdateTime":"${nanos(UPDATED_DAY + (index % 30), 1_234_567 + index)}"`;
    const feed =
      `"instrumentGroup":"${root}","channel":${channel},${index % 7 === 6 ? '"state":"PASSIVE",' : ''}` +
      `"exchangeSendsVolume":true,${vendorKeys},"exchangeId":4`;
    const expiration = `"symbolExpiration":{"year":${year},"month":${month},"day":15}`;
    const maturity = `"contractMaturity":{"year":${year},"month":${month}}`;
    const metadata = (securityId: number, extra = '') =>
      `"exchangeMetadata":{"securityId":"${securityId}",${extra}"channelId":"${300 + channel}","sbeId":1}`;
    const decimal = `{"denominator":100,"subDenominator":1}`;
    switch (kind) {
      case 'FUTURE':
        return (
          `${head},"symbol":"${code}","description":"${root} Future ${MONTH_NAMES[month - 1]} ${year}",` +
          `"cfiCode":"FCAPSX","currencyCode":"USD","exchangeCode":${mic},` +
          `"minimumPriceIncrement":0.25,"contractPointValue":50,"calendar":{"events":[` +
          `${event('FIRST_TRADE_DATE', expiryDay - 420)},${event('LAST_TRADE_DATE', expiryDay)},` +
          `${event('FIRST_NOTICE_DATE', expiryDay + 3)}]},` +
          `${times},"timeZoneName":"America/Chicago",${expiration},${feed},"priceFormat":${decimal},` +
          `"priceDenominator":100,"quantityDenominator":1,"symbols":[` +
          `{"vendor":"VENDOR","symbol":"${root}${monthCode}${year % 100}","longSymbol":"${root}${monthCode}${year}"},` +
          `{"vendor":"exchange","symbol":"${code}"}],${maturity},"underlying":"${root}",` +
          `"contractSize":"50","contractSizeDescription":"50 x index points",${metadata(100_000 + index)}}`
        );
      case 'OPTION': {
        const strike = 100 + (index % 50);
        const side = index % 8 === 1 ? 'C' : 'P';
        return (
          `${head},"symbol":"${code} ${side}${strike}",` +
          `"description":"${root} ${MONTH_NAMES[month - 1]} ${year} ${side === 'C' ? 'Call' : 'Put'} ${strike}",` +
          `"cfiCode":"O${side}AFPS","currencyCode":"USD","exchangeCode":${mic},` +
          `"minimumPriceIncrement":0.0099999998,"calendar":{"events":[` +
          `${event('FIRST_TRADE_DATE', expiryDay - 180)},${event('LAST_TRADE_DATE', expiryDay)}]},` +
          `${times},"timeZoneName":"America/Chicago",${expiration},${feed},"priceFormat":${decimal},` +
          `"priceDenominator":100,"quantityDenominator":1,"symbols":[` +
          `{"vendor":"exchange","symbol":"${code} ${side}${strike}"}],${maturity},"underlying":"${code}",` +
          `"underlyingMarketId":"${id(index - 1)}","underlyingOpenfeedMarketId":"-${id(index - 1)}",` +
          `"optionStrike":"${strike * 100}","optionStrikeDenominator":100,` +
          `"optionType":"${side === 'C' ? 'CALL' : 'PUT'}","optionStyle":"${index % 16 === 1 ? 'AMERICAN' : 'EUROPEAN'}",` +
          `"optionStrikePriceFormat":{"isFractional":true,"denominator":8,"subDenominator":1},` +
          `"contractSize":"50",${metadata(200_000 + index, `"underlyingSecurityId":"${100_000 + index - 1}",`)}}`
        );
      }
      case 'SPREAD': {
        const far = `${root}Z${(year + 1) % 10}`;
        return (
          `${head},"symbol":"${code}-${far}","description":"Calendar spread ${code}-${far}",` +
          `"cfiCode":"FMXXXX","currencyCode":"USD","exchangeCode":${mic},` +
          `"minimumPriceIncrement":0.05,"contractPointValue":50,"calendar":{"events":[` +
          `${event('FIRST_TRADE_DATE', expiryDay - 420)},${event('LAST_TRADE_DATE', expiryDay)}]},` +
          `${times},"timeZoneName":"America/Chicago",${expiration},${feed},"priceFormat":${decimal},` +
          `"priceDenominator":100,"quantityDenominator":1,"symbols":[` +
          `{"vendor":"exchange","symbol":"${code}-${far}"}],` +
          `${maturity},"spreadCode":"SP","spreadLeg":[` +
          `{"marketId":"${id(index - 2)}","ratio":1,"symbol":"${code}"},` +
          `{"marketId":"${id(index + 2)}","ratio":-1,"symbol":"${far}"}],${metadata(300_000 + index)}}`
        );
      }
      case 'EQUITY': {
        const symbol = `S${index}`;
        return (
          `${head},"symbol":"${symbol}","description":"Holdings ${index} Class A",` +
          `"cfiCode":"ESVUFR","currencyCode":"USD","isin":"US${String(index).padStart(9, '0')}7",` +
          `"exchangeCode":${mic},"minimumPriceIncrement":0.0099999998,` +
          `"calendar":{"events":[${event('FIRST_TRADE_DATE', CREATED_DAY - 900 - (index % 500))}]},` +
          `${times},"timeZoneName":"America/New_York",${feed},` +
          `"exchangeSendsHigh":true,"exchangeSendsLow":true,"exchangeSendsOpen":true,` +
          `"priceFormat":{"denominator":10000,"subDenominator":1},"priceDenominator":10000,` +
          `"quantityDenominator":1,"symbols":[{"vendor":"VENDOR","symbol":"${symbol}"},` +
          `{"vendor":"primarylistingmarketparticipantid","symbol":"Q"}],"consolidatedFeedInstrument":true,` +
          `${metadata(400_000 + index)},"schedule":{"sessions":[` +
          `{"open":"04:00","close":"09:30","type":"PRE"},{"open":"09:30","close":"16:00"}]}}`
        );
      }
    }
  };
}

/**
 * The emulator's `--help-options` text: every option with its default and every assumption it makes where
 * the service's behaviour is unknown or inferred (docs/service.md#assumptions-and-emulator-options).
 */

/** Help text of the emulator: options, defaults, fixed assumptions, catalogue and faults. */
export const EMULATOR_HELP = `mdget emulator: the market data service on 127.0.0.1, for demos, tests and benchmarks.
Set an option with --set key=value (repeatable). Bases: /historical, /fo, /extras, /instruments.

Options (default in brackets)
  host [127.0.0.1], port [0 = any free port], username [demo], password [demo]
  lineEnding        crlf | lf [crlf]              line terminator of CSV bodies
  finalNewline      true | false [true]           terminate the last line
  strayLineEnd      true | false [false]          one extra \\r\\n after every CSV data body, empty ones
                                                  included (real responses may have one); never after
                                                  Error lines, JSON or XML
  errorStatus       200 | 400 | 401 | 403 [200]   HTTP status sent with in-band Error lines
  errorTexts.auth             [Error: invalid username or password]
  errorTexts.missingParameter [Error: missing parameter <name>]
  errorTexts.invalidDate      [Error: invalid date <value>]
  errorTexts.unknownSymbol    [Error: unknown symbol <sym>]
  errorTexts.notEntitled      [Error: not entitled to <sym>]
  errorTexts.invalidValue     [Error: invalid value <value> for parameter <name>]  (bad enum, number,
                              non-futures nearby, futures on form-T)
  unknownSymbol     error | empty [error]         unknown or unentitled symbol: Error line or empty body
  gzip              auto | never [auto]           gzip only when Accept-Encoding asks for it
  contentType       [text/plain; charset=utf-8]   Content-Type of CSV bodies
  transfer          chunked | length [chunked]    Transfer-Encoding chunked or Content-Length
  rowCap            integer | none [none]         silent server cap on rows per response (like maxrecords)
  ignoreStart       true | false [false]          misbehave: answer data requests as if they had no start
                                                  (the service's defaults for a missing start then apply)
  tickLimit         second | exact [second]       when maxrecords or rowCap cuts a tick response, second
                                                  also returns the rest of the last tick's second, past
                                                  the limit, as the vendor's manual says (desc: the
                                                  oldest second returned, completed going back); exact
                                                  stops at N rows
  rateLimit         integer | off [off]           requests per second above which the answer is 429:
                                                  a sliding one-second window over the GET requests
                                                  admitted (429s do not count), on every path
  retryAfter        seconds [1]                   Retry-After of rate-limit 429s
  latency           milliseconds [0]              wait before the response headers of every request
                                                  (batch benchmarks: 50); faults' slow adds to it
  maxQueryLength    characters [2048]             longer query strings get HTTP 414
  tickDay           calendar | session [calendar] a tick response covers the calendar day of start (of
                                                  end without start) or its session (futures: from 17:00
                                                  CT the evening before); a multi-day request returns
                                                  only that first day, cut at the next midnight
  barLabel          start | end [start]           minute bar TIME labels the bar's start or end
  barAlign          clock | session [clock]       interval bars are multiples after midnight or after
                                                  the session open
  formTHours        HH:MM-HH:MM [04:00-20:00]     Form-T minutes, Eastern time
  periodDate        first | last [first]          date of weekly and longer EOD lines: the period's first
                                                  or last trading day
  eodEnd            inclusive | exclusive [inclusive]  EOD end: records up to and including end's day
                                                  (the vendor's manual), or before it (the older
                                                  reading); events keep end exclusive
  splitNotation     4-1 | 4:1 | 4/1 | ratio [4-1]  VALUE of Split events
  dateRangeShape    symbol-first-last | symbol-first-last-count [symbol-first-last]
  futuresOptionsShape standard | extended [standard]  extended adds IMPLIED_VOLATILITY (impliedVolatility)
  exchangesPath     [exchanges]                   exchanges list at /extras/<exchangesPath>.php
  exchangesEncoding utf-8 | iso-8859-1 [utf-8]    encoding of the exchanges XML and its prolog
  exchangesShape    documented | legacy [documented]  legacy: the lists of 2012 and 2013:
                                                  <?xml version="1.0"?> without an encoding (the bytes
                                                  still follow exchangesEncoding), attributes id,
                                                  <prefix>code, delay, description, codes, feewaiver,
                                                  data_frequency, freedelayed (yes, no or eod), each
                                                  optional; no time-zone, snapshot or EOD-time ones
  exchangesCodePrefix lower-case letters [abc]    prefix of the legacy feed-code attribute (abccode)
  extrasAuth        none | query [none]           query: the exchanges list needs username and password
                                                  in the query, else HTTP 401
  vendorPrefix      [vendor]                      prefix of <prefix>ExchangeCode, <prefix>BaseCode,
                                                  <prefix>Exchange in instrument JSON
  ticksPerDay       integer [small: 800-3000 by market]  tick density (benchmarks: 15000000)
  cacheBodies       true | false [false]          replay a generated body from memory for the same path
                                                  and query (credentials ignored): plain with
                                                  Content-Length; gzip as it was streamed, its 16 KiB
                                                  pieces each an HTTP chunk (or with Content-Length)
  instrumentsBigCount integer [100000]            entries of BIG-instruments.json (streamed)
  instrumentsSchema compact | full [compact]      BIG entries: compact (about 250 bytes) or full, every
                                                  field of the instruments files (docs/service.md)
                                                  (about 1.2 KB: 200000 entries make about 230 MiB);
                                                  generated as a stream, ids above 2^53 as strings;
                                                  with transfer=length a first pass measures the body
  now               ISO time [the real clock]     the emulator's clock: "today" and the data cut-off
  faults            JSON: one fault or an array [none]

Faults: {"kind":..., "path":"queryticks.ashx" (default: any), "times":n (default: unlimited)}
  status {status, body?, retryAfter?}  that HTTP status (500, 503, 429, 401, 404 ...)
  inBandError {message}   200 with that one line        errorAfterData {message}  3 lines, then the Error line
  html                    200 with an HTML maintenance page
  truncate {afterBytes}   Content-Length of the whole body, socket destroyed after afterBytes
  partialLine             chunked body ending in the middle of a record, closed cleanly
  reset {afterBytes}      chunked body, socket destroyed after afterBytes
  hangUp                  connection closed before any answer
  slow {delayMs}          wait before the headers (combines with the next matching fault)
  redirect {location}     302 to location              badGzip   gzip stream without its trailer

Fixed behaviour and assumptions (where the service is unknown or inferred; docs/service.md)
  Requests: GET only; query names case-insensitive; name= is absent; the first of repeated names wins;
  '+' reads as a space; unknown parameters are ignored and recorded. Never redirects (but the fault).
  Credentials: every /historical and /fo request needs username and password, else the auth Error line.
  Dates: yyyymmdd[hhmm[ss]] (8, 12 or 14 digits), market wall clock: America/New_York for equities,
  America/Chicago for everything else; start inclusive, end exclusive (EOD: eodEnd); no data after now.
  Without start: ticks and minutes start at the beginning of end's day (today's without end); with
  end + maxrecords and no start, minutes and EOD walk back as far as data goes, ticks to end's day.
  Without end: ticks and minutes stop at the end of start's day, except minutes with start +
  maxrecords, which run to the latest data (all three minute endpoints).
  order: asc unless desc (case-insensitive); desc reverses everything, ties included.
  Data starts 2020-01-02. Equities: weekdays except NYSE holidays; ticks 04:00-20:00 ET (outside
  09:30-16:00 sale condition T, excluded by the default filters), minutes 09:30-16:00. Futures: Sunday
  17:00 to Friday 16:00 CT, daily break 16:00-17:00, evenings belong to the next trading day, closed on
  Jan 1 and Dec 25; settlement prints '*' (excluded by default). Forex: Sunday 16:00 to Friday 16:00 CT,
  closed on the same days.
  ^BTCUSD trades every minute of every day: its autumn DST hour repeats, its spring hour is missing.
  sessionfilter defaults: NYSE @EFKX56V9, NASDAQ @ABDEFKOSXY156, others all but '*'.
  Tick SESSION_CODE: futures G, equities @ F I E T O 5 6, forex and indices blank; index sizes and
  volumes are empty fields. A minute without trades has no line.
  trend=y: ticks give one TIME,TRADING_DAY,SESSION_CODE,SUPPORT,RESISTANCE line every 30 minutes;
  minutes one TIME,SUPPORT,RESISTANCE per bar; EOD one SYMBOL,DATE,SUPPORT,RESISTANCE per period.
  Intervals never cross midnight (clock) or the session (session); a bar is in a window when its start
  is; minutes after end do not count. ROOT*n on ticks resolves to that day's n-th contract (5 fields).
  Contracts: a contract is in force from the previous one's expiry day to the day before its own;
  one-digit years mean 2020-2029; contracts listed about 420 days before expiry. Bare roots (ES) are
  not symbols except as the futures-options root.
  EOD: all data (from 2020-01-02 or listing) up to the last closed session; maxrecords ignored with
  start; nearest/continue/ROOT*n name the contract of each line; nearest and continue on anything but
  futures (equities, indices, forex) give its plain records, not an Error line;
  contractroll=combined rolls 8 days before expiry; daystoexpiration applies to nearest and continue;
  splits=false and dividends=false give raw prices; volume plain = average, sum* = sum over the
  period; 7 fields, futures 8.
  Events: unknown symbols left out; symbols in request order, then date ascending; end exclusive.
  Date ranges: 'symbols' (or 'symbol'); unknown symbols left out; minutes of equities cover Form-T.
  Futures options: root and date (default: the last closed session); the two nearest live series,
  9 strikes each, call then put; CSV or a JSON array ([] when none); errors as plain Error lines.
  Exchanges list: <exchanges> root, neutral attribute names (feedcode, timezone_feed); ICEUS and ICEEU
  both contain "Futures", CBOT and CBOTM both contain "cbot"; BIG has the large file; ICEEU's file
  is []; ids are case-sensitive in paths. The legacy list has every documented id plus NYSE_ARCA,
  LSE-AIM and TEST_EX-1 (only an id); CBOT and CBOTM share code B; EUREX, OTC PINK and TEST_EX-1
  have no code; codes include $, e1, l9, p2. Every listed id has an instruments file.
  Instruments: no credentials; ETag and If-None-Match (304); unknown id 404; symbolExpiration years
  have 4 digits; calendar dates are midnight UTC; no embedded definitions in captures by default.

Known symbols: AAPL MSFT QQQ TSLA (NASDAQ), IBM SPY BRK.B (NYSE); futures ES NQ 6E (CME), ZC (CBOT),
  CL (NYMEX), GC (COMEX) as ROOT+month+year (ESM25, ESM5) or ROOT*n; ^EURUSD ^USDJPY ^BTCUSD; $SPX;
  $VIX is known but not entitled. Anything else is unknown.
`;

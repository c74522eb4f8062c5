;; The ndjson/json path's per-byte loop (../json-rows.ts): normalized csv lines (each ending in LF,
;; already in the output's columns) become JSON objects. Each field is found 16 bytes at a time (the first
;; comma or LF from a bitmask) while two more bitmasks say whether it holds a byte that JSON.stringify
;; would escape or that is not ASCII, and whether it holds a byte no number has; only a field made of
;; digits, `-` and `.` is then checked against recordToJson's number grammar (from bitmasks too when it
;; is shorter than a block). Then its key and its bytes are stored, a block at a time. A line this loop
;; cannot prove right (a field count other than the columns', a byte to escape or not ASCII, an empty
;; line, no LF at the end) is left to JavaScript: the call stops at its start. Per field, not per byte, and
;; with no call into the engine (memory.copy is one): ~800 MB/s of csv on Node 20, where recordToJson
;; managed ~10 MB/s. Rebuild the embedded bytes with `npm run wasm`.
;;
;; The table at address 0 (written by json-rows.ts before each call), 16 bytes an entry: the record's
;; closing bytes as (pointer, length); then per column the (pointer, length) of its key bytes (`{"symbol":`
;; or `,"time":`; the record's opening bytes lead the first) and whether the column holds text. Input is
;; followed by 16 readable bytes, output by 16 writable bytes past `cap`: blocks may run over both ends.
(module
  (memory (export "memory") 1)
  ;; Records written by the last call; where the first line not written starts in its input; and why the
  ;; call stopped: 0 the input ended, 1 the output is full (call again from `rest` with more room), 2 the
  ;; line at `rest` is for JavaScript.
  (global $records (export "records") (mut i32) (i32.const 0))
  (global $rest (export "rest") (mut i32) (i32.const 0))
  (global $stop (export "stop") (mut i32) (i32.const 0))

  ;; Copies `length` bytes in 16-byte blocks, so up to 15 bytes past the end are written too; returns the
  ;; end. For the rare key or field of 16 bytes or more.
  (func $copy (param $to i32) (param $from i32) (param $length i32) (result i32)
    (local $k i32)
    (loop $block
      (v128.store align=1 (i32.add (local.get $to) (local.get $k))
        (v128.load align=1 (i32.add (local.get $from) (local.get $k))))
      (local.set $k (i32.add (local.get $k) (i32.const 16)))
      (br_if $block (i32.lt_u (local.get $k) (local.get $length))))
    (i32.add (local.get $to) (local.get $length)))

  ;; Whether a field of fewer than 16 bytes, all of them digits, - or . and held in $v, is a number: a -
  ;; only first, at most one point, digits on both sides of it, and no 0 leading other digits.
  (func $isShortNumber (param $v v128) (param $length i32) (result i32)
    (local $field i32) (local $minus i32) (local $point i32) (local $intEnd i32)
    (local.set $field (i32.sub (i32.shl (i32.const 1) (local.get $length)) (i32.const 1)))
    (local.set $minus (i32.and (local.get $field) (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 45))))))
    (local.set $point (i32.and (local.get $field) (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 46))))))
    (local.set $intEnd (select (i32.ctz (local.get $point)) (local.get $length) (local.get $point)))
    ;; $minus is 0 or 1: where the digits start
    (i32.and
      (i32.and
        (i32.and (i32.le_u (local.get $minus) (i32.const 1))
          (i32.eqz (i32.and (local.get $point) (i32.sub (local.get $point) (i32.const 1)))))
        (i32.and (i32.gt_u (local.get $intEnd) (local.get $minus))
          (i32.or (i32.eqz (local.get $point)) (i32.lt_u (i32.add (local.get $intEnd) (i32.const 1)) (local.get $length)))))
      (i32.or
        (i32.eqz (i32.and (i32.const 1)
          (i32.shr_u (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 48)))) (local.get $minus))))
        (i32.eq (local.get $intEnd) (i32.add (local.get $minus) (i32.const 1))))))

  ;; Whether the bytes match /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/ (output-state.ts NUMBER_RE): fields of 16
  ;; bytes or more.
  (func $isNumber (param $at i32) (param $length i32) (result i32)
    (local $end i32) (local $digits i32)
    (local.set $end (i32.add (local.get $at) (local.get $length)))
    (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 45))
      (then (local.set $at (i32.add (local.get $at) (i32.const 1)))))
    ;; the integer part: 0 alone, or digits not starting with 0
    (local.set $digits (call $digitsFrom (local.get $at) (local.get $end)))
    (if (i32.or (i32.eqz (local.get $digits))
          (i32.and (i32.gt_u (local.get $digits) (i32.const 1)) (i32.eq (i32.load8_u (local.get $at)) (i32.const 48))))
      (then (return (i32.const 0))))
    (local.set $at (i32.add (local.get $at) (local.get $digits)))
    (if (i32.eq (local.get $at) (local.get $end)) (then (return (i32.const 1))))
    ;; a point and at least one digit, to the end
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 46)) (then (return (i32.const 0))))
    (local.set $at (i32.add (local.get $at) (i32.const 1)))
    (local.set $digits (call $digitsFrom (local.get $at) (local.get $end)))
    (i32.and (i32.ne (local.get $digits) (i32.const 0))
      (i32.eq (i32.add (local.get $at) (local.get $digits)) (local.get $end))))

  ;; How many digits start at `at` (stopping at `end`).
  (func $digitsFrom (param $at i32) (param $end i32) (result i32)
    (local $i i32)
    (local.set $i (local.get $at))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (br_if $done (i32.ge_u (i32.sub (i32.load8_u (local.get $i)) (i32.const 48)) (i32.const 10)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (i32.sub (local.get $i) (local.get $at)))

  ;; convert(in, n, out, cap, columns) -> bytes of complete records written at out.
  (func (export "convert")
    (param $in i32) (param $n i32) (param $out i32) (param $cap i32) (param $columns i32) (result i32)
    (local $i i32) (local $end i32) (local $j i32) (local $outEnd i32) (local $lineIn i32) (local $lineOut i32)
    (local $records i32) (local $column i32) (local $entry i32) (local $start i32) (local $length i32)
    (local $v v128) (local $k i32) (local $inField i32) (local $unsafe i32) (local $other i32) (local $b i32)
    (local $keyLength i32) (local $closeLength i32) (local $first v128) (local $quoted i32)
    (local.set $i (local.get $in))
    (local.set $end (i32.add (local.get $in) (local.get $n)))
    (local.set $j (local.get $out))
    (local.set $outEnd (i32.add (local.get $out) (local.get $cap)))
    (local.set $closeLength (i32.load offset=4 (i32.const 0)))
    (global.set $stop (i32.const 0))
    (block $done
      (loop $line
        (local.set $lineIn (local.get $i))
        (local.set $lineOut (local.get $j))
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        ;; recordToJson's caller skips an empty line: JavaScript decides
        (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 10))
          (then (global.set $stop (i32.const 2)) (br $done)))
        (local.set $column (i32.const 0))
        (loop $field
          (local.set $start (local.get $i))
          (local.set $unsafe (i32.const 0))
          (local.set $other (i32.const 0))
          (local.set $first (v128.load align=1 (local.get $i)))
          (loop $block
            (local.set $v (v128.load align=1 (local.get $i)))
            ;; $k: bytes before the field's end (16 when it goes on); $inField: their bits
            (local.set $k
              (i32.ctz (i32.or (i32.const 0x10000)
                (i8x16.bitmask (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 44)))
                  (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10))))))))
            (local.set $inField (i32.sub (i32.shl (i32.const 1) (local.get $k)) (i32.const 1)))
            ;; controls and non-ASCII (below 32 as signed bytes), " and \
            (local.set $unsafe
              (i32.or (local.get $unsafe) (i32.and (local.get $inField)
                (i8x16.bitmask (v128.or (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 32)))
                  (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92)))))))))
            ;; anything but digits, - and .
            (local.set $other
              (i32.or (local.get $other) (i32.and (local.get $inField)
                (i32.xor (i32.const 0xffff)
                  (i8x16.bitmask (v128.or (i8x16.lt_u (i8x16.sub (local.get $v) (i8x16.splat (i32.const 48))) (i8x16.splat (i32.const 10)))
                    (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 45)))
                      (i8x16.eq (local.get $v) (i8x16.splat (i32.const 46))))))))))
            (local.set $i (i32.add (local.get $i) (local.get $k)))
            ;; past the input (a last line without its LF): JavaScript decides
            (if (i32.ge_u (local.get $i) (local.get $end))
              (then (global.set $stop (i32.const 2)) (br $done)))
            (br_if $block (i32.eq (local.get $k) (i32.const 16))))
          (local.set $b (i32.load8_u (local.get $i)))
          (local.set $length (i32.sub (local.get $i) (local.get $start)))
          (local.set $column (i32.add (local.get $column) (i32.const 1)))
          ;; more or fewer fields than columns: recordToJson picks other keys
          (if (i32.ne (i32.eq (local.get $b) (i32.const 10)) (i32.eq (local.get $column) (local.get $columns)))
            (then (global.set $stop (i32.const 2)) (br $done)))
          (local.set $entry (i32.shl (local.get $column) (i32.const 4)))
          (local.set $keyLength (i32.load offset=4 (local.get $entry)))
          ;; room for the key, the value quoted or null, the record's end and the blocks' overrun
          (if (i32.gt_u
                (i32.add (i32.add (local.get $j) (local.get $keyLength))
                  (i32.add (local.get $length) (i32.add (local.get $closeLength) (i32.const 4))))
                (local.get $outEnd))
            (then (global.set $stop (i32.const 1)) (br $done)))
          ;; keys are up to 16 bytes but for open_interest's
          (if (i32.le_u (local.get $keyLength) (i32.const 16))
            (then (v128.store align=1 (local.get $j) (v128.load align=1 (i32.load (local.get $entry)))))
            (else (drop (call $copy (local.get $j) (i32.load (local.get $entry)) (local.get $keyLength)))))
          (local.set $j (i32.add (local.get $j) (local.get $keyLength)))
          (if (i32.eqz (local.get $length))
            (then
              (i32.store (local.get $j) (i32.const 0x6c6c756e)) ;; null
              (local.set $j (i32.add (local.get $j) (i32.const 4))))
            (else
              ;; a number unless the column holds text; only digits, - and . can make one
              (local.set $quoted
                (if (result i32) (i32.or (local.get $other) (i32.load offset=8 (local.get $entry)))
                  (then (i32.const 1))
                  (else
                    (i32.eqz
                      (if (result i32) (i32.lt_u (local.get $length) (i32.const 16))
                        (then (call $isShortNumber (local.get $first) (local.get $length)))
                        (else (call $isNumber (local.get $start) (local.get $length))))))))
              (if (local.get $quoted)
                (then
                  (if (local.get $unsafe) (then (global.set $stop (i32.const 2)) (br $done)))
                  (i32.store8 (local.get $j) (i32.const 34))
                  (local.set $j (i32.add (local.get $j) (i32.const 1)))))
              ;; a short field from the block already loaded
              (if (i32.lt_u (local.get $length) (i32.const 16))
                (then (v128.store align=1 (local.get $j) (local.get $first)))
                (else (drop (call $copy (local.get $j) (local.get $start) (local.get $length)))))
              (local.set $j (i32.add (local.get $j) (local.get $length)))
              (if (local.get $quoted)
                (then
                  (i32.store8 (local.get $j) (i32.const 34))
                  (local.set $j (i32.add (local.get $j) (i32.const 1)))))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $field (i32.eq (local.get $b) (i32.const 44))))
        ;; "}" and an LF at most
        (v128.store align=1 (local.get $j) (v128.load align=1 (i32.load (i32.const 0))))
        (local.set $j (i32.add (local.get $j) (local.get $closeLength)))
        (local.set $records (i32.add (local.get $records) (i32.const 1)))
        (br $line)))
    (global.set $records (local.get $records))
    (global.set $rest (i32.sub (local.get $lineIn) (local.get $in)))
    (i32.sub (local.get $lineOut) (local.get $out))))

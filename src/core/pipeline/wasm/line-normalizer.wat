;; The csv path's one per-byte loop (../line-normalizer.ts): CRLF, LF and bare CR become LF, blank
;; lines (empty or spaces/tabs only) are dropped, and every line kept starts with a prefix (the csv's
;; leading `symbol` column). Runs of 16 bytes without a control character (most of a record) are
;; copied with one SIMD load/store; the rest goes byte by byte (bench/README.md#line-ends-and-json-rows).
;; Rebuild the embedded bytes with `npm run wasm`.
(module
  (memory (export "memory") 1)
  ;; Complete lines written by the last call; where the first line not written starts in its input; and
  ;; whether the call stopped because the output was full (call again from `rest`).
  (global $lines (export "lines") (mut i32) (i32.const 0))
  (global $rest (export "rest") (mut i32) (i32.const 0))
  (global $full (export "full") (mut i32) (i32.const 0))

  ;; Copies the prefix at $j; returns the new $j.
  (func $prefix (param $j i32) (param $pre i32) (param $preLen i32) (result i32)
    (local $k i32)
    (block $done
      (loop $copy
        (br_if $done (i32.ge_u (local.get $k) (local.get $preLen)))
        (i32.store8 (i32.add (local.get $j) (local.get $k)) (i32.load8_u (i32.add (local.get $pre) (local.get $k))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $copy)))
    (i32.add (local.get $j) (local.get $preLen)))

  ;; normalize(in, n, out, cap, pre, preLen) -> bytes of complete lines written at out. The output must not
  ;; overlap the input; it stops at a line start when fewer than preLen + 16 bytes of cap remain.
  (func (export "normalize")
    (param $in i32) (param $n i32) (param $out i32) (param $cap i32) (param $pre i32) (param $preLen i32)
    (result i32)
    (local $i i32) (local $end i32) (local $j i32) (local $outEnd i32) (local $lineOut i32) (local $lineIn i32)
    (local $content i32) (local $lines i32) (local $b i32) (local $v v128) (local $m i32) (local $k i32)
    (local.set $i (local.get $in))
    (local.set $end (i32.add (local.get $in) (local.get $n)))
    (local.set $outEnd (i32.add (local.get $out) (local.get $cap)))
    (local.set $lineOut (local.get $out))
    (local.set $lineIn (local.get $in))
    (global.set $full (i32.const 0))
    (local.set $j (call $prefix (local.get $out) (local.get $pre) (local.get $preLen)))
    (block $done
      (loop $next
        ;; out of room: stop before this line; the caller flushes and calls again from `rest`
        (if (i32.gt_u (i32.add (local.get $j) (i32.const 16)) (local.get $outEnd))
          (then (global.set $full (i32.const 1)) (br $done)))
        ;; 16 bytes: those before the first control character are copied with one store
        (if (i32.le_u (i32.add (local.get $i) (i32.const 16)) (local.get $end))
          (then
            (local.set $v (v128.load align=1 (local.get $i)))
            (local.set $m (i8x16.bitmask (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32)))))
            ;; $k: bytes before the first control character (16 when there is none)
            (local.set $k (i32.ctz (i32.or (local.get $m) (i32.const 0x10000))))
            (if (local.get $k)
              (then
                (v128.store align=1 (local.get $j) (local.get $v))
                (local.set $content
                  (i32.or (local.get $content)
                    (i32.ne (i32.const 0)
                      (i32.and
                        (i8x16.bitmask (i8x16.gt_u (local.get $v) (i8x16.splat (i32.const 32))))
                        (i32.sub (i32.shl (i32.const 1) (local.get $k)) (i32.const 1))))))
                (local.set $i (i32.add (local.get $i) (local.get $k)))
                (local.set $j (i32.add (local.get $j) (local.get $k)))
                (br $next)))))
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $i)))
        (if (i32.gt_u (local.get $b) (i32.const 32))
          (then
            (i32.store8 (local.get $j) (local.get $b))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (local.set $content (i32.const 1)))
          (else
            (if (i32.or (i32.eq (local.get $b) (i32.const 10)) (i32.eq (local.get $b) (i32.const 13)))
              (then
                (if (local.get $content)
                  (then
                    (i32.store8 (local.get $j) (i32.const 10))
                    (local.set $lineOut (i32.add (local.get $j) (i32.const 1)))
                    (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
                    (local.set $content (i32.const 0))))
                ;; a new line (or a blank one dropped) starts after the prefix, which is written once
                (local.set $j (call $prefix (local.get $lineOut) (local.get $pre) (local.get $preLen)))
                ;; CR LF is one line end
                (if (i32.eq (local.get $b) (i32.const 13))
                  (then
                    (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $end))
                      (then
                        (if (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 1))) (i32.const 10))
                          (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))))
                (local.set $lineIn (i32.add (local.get $i) (i32.const 1))))
              (else
                ;; space, tab or another control byte: kept, but only a non-blank makes a line count
                (i32.store8 (local.get $j) (local.get $b))
                (local.set $j (i32.add (local.get $j) (i32.const 1)))
                (if (i32.and (i32.ne (local.get $b) (i32.const 32)) (i32.ne (local.get $b) (i32.const 9)))
                  (then (local.set $content (i32.const 1))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (global.set $lines (local.get $lines))
    (global.set $rest (i32.sub (local.get $lineIn) (local.get $in)))
    (i32.sub (local.get $lineOut) (local.get $out)))

;; line_ends(in, n) -> line ends (LF, CR, CR LF as one) in the bytes: the raw path's row count. Counted
  ;; 16 bytes at a time from bitmasks; a CR LF split across two blocks is counted once.
  (func (export "line_ends") (param $in i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $count i32) (local $v v128) (local $b i32) (local $lf i32) (local $cr i32)
    (local.set $i (local.get $in))
    (local.set $end (i32.add (local.get $in) (local.get $n)))
    (block $simd
      (loop $blocks
        (br_if $simd (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load align=1 (local.get $i)))
        (local.set $lf (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 10)))))
        (local.set $cr (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 13)))))
        (local.set $count
          (i32.sub
            (i32.add (local.get $count) (i32.add (i32.popcnt (local.get $lf)) (i32.popcnt (local.get $cr))))
            (i32.popcnt (i32.and (local.get $cr) (i32.shr_u (local.get $lf) (i32.const 1))))))
        ;; a CR ending the block and an LF starting the next are one line end
        (if (i32.and (i32.shr_u (local.get $cr) (i32.const 15)) (i32.lt_u (i32.add (local.get $i) (i32.const 16)) (local.get $end)))
          (then
            (if (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 16))) (i32.const 10))
              (then (local.set $count (i32.sub (local.get $count) (i32.const 1)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $b (i32.load8_u (local.get $i)))
        (if (i32.eq (local.get $b) (i32.const 10)) (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (if (i32.eq (local.get $b) (i32.const 13))
          (then
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $end))
              (then
                (if (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 1))) (i32.const 10))
                  (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $count)))

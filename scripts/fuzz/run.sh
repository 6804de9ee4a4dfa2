#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/<Target>/, see Fuzz/README.md) with
# `-sanitize=fuzzer,address` into .build/fuzz and runs them one after another.
#
#   scripts/fuzz/run.sh [--minutes N | --seconds S | --runs N] [--release] [TARGET…]
#
# Default: 60 seconds per target, every target, debug builds; `--runs N` runs
# each target for N executions instead, however long that takes, and
# `--release` builds optimized (-O keeps Swift's bounds and overflow traps;
# ASan stays on): the long runs in scripts/fuzz/RESULTS.md. The seed corpus in
# Fuzz/Corpus/<Target>/ is read, never written: new inputs go to
# .build/fuzz/corpus/<Target>/, crashes to .build/fuzz/crashes/<Target>/,
# logs to .build/fuzz/logs/<Target>.log. Exits 1 when any target crashed
# (after running the others), printing each crash input's path and how to
# replay it; 2 on a usage or build error.
set -euo pipefail

cd "$(dirname "$0")/../.."
root=$PWD
out="$root/.build/fuzz"
all_targets=(FuzzFrameDecoder FuzzJSONParser FuzzEndpoint FuzzSuiteFile FuzzValueParser)

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

seconds=60
runs=0
config=debug
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) [ $# -ge 2 ] || usage; seconds=$(( $2 * 60 )); shift 2 ;;
        --seconds) [ $# -ge 2 ] || usage; seconds=$2; shift 2 ;;
        --runs) [ $# -ge 2 ] || usage; runs=$2; seconds=0; shift 2 ;;
        --release) config=release; shift ;;
        -h|--help) usage ;;
        Fuzz*) targets+=("$1"); shift ;;
        *) echo "fuzz: unknown argument $1" >&2; usage ;;
    esac
done
[ "$seconds" -gt 0 ] 2>/dev/null || [ "$runs" -gt 0 ] 2>/dev/null \
    || { echo "fuzz: the time or run count must be a positive number" >&2; exit 2; }
limit="${seconds}s"
[ "$runs" -gt 0 ] && limit="$runs runs"
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

dict_for() {  # the libFuzzer dictionary of a target (libFuzzer takes one -dict file)
    local dict="$out/dicts/$1.dict"
    mkdir -p "$out/dicts"
    case "$1" in
        FuzzJSONParser) cat Fuzz/Corpus/json.dict ;;
        FuzzEndpoint) cat Fuzz/Corpus/json.dict Fuzz/Corpus/endpoint.dict ;;
        FuzzSuiteFile|FuzzValueParser) cat Fuzz/Corpus/json.dict Fuzz/Corpus/suite.dict ;;
        *) : ;;
    esac > "$dict"
    [ -s "$dict" ] && echo "-dict=$dict"
}

# -DFUZZING selects the libFuzzer entry point (see Fuzz/README.md); lld avoids
# ld.gold's noise about ASan's local symbols.
# shellcheck disable=SC2054 # -sanitize=fuzzer,address is one swiftc argument: the comma is swiftc's list.
build_flags=(-c "$config" --scratch-path "$out" -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld)
for target in "${targets[@]}"; do
    echo "==> building $target"
    if ! swift build "${build_flags[@]}" --product "$target" >"$out.build-$target.log" 2>&1; then
        cat "$out.build-$target.log" >&2
        echo "fuzz: building $target failed" >&2
        exit 2
    fi
done
bin_dir=$(swift build "${build_flags[@]}" --show-bin-path)

status=0
summary=()
for target in "${targets[@]}"; do
    corpus="$out/corpus/$target"
    crashes="$out/crashes/$target"
    log="$out/logs/$target.log"
    mkdir -p "$corpus" "$crashes" "$out/logs"
    echo "==> fuzzing $target for $limit (log: ${log#"$root"/})"
    set +e
    # The first folder collects new inputs; the seed folder is only read.
    dict=$(dict_for "$target" || true)
    # No Swift backtracer inside ASan (it trips a false stack-buffer-underflow); libFuzzer prints the stack.
    SWIFT_BACKTRACE=enable=no "$bin_dir/$target" "$corpus" "Fuzz/Corpus/$target" ${dict:+"$dict"} \
        -max_total_time="$seconds" -runs="$([ "$runs" -gt 0 ] && echo "$runs" || echo -1)" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    units=$(find "$corpus" -type f | wc -l)
    if [ $rc -ne 0 ]; then
        status=1
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo "fuzz: $target CRASHED (exit $rc); input: ${artifact:-see $log}" >&2
        grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$log" >&2 || true
        echo "fuzz: replay: $bin_dir/$target ${artifact:-CRASH_FILE}" >&2
        summary+=("$target | crash: ${artifact:-?} | ${execs:-?} execs | ${rate:-?}/s | ${cov:-?}")
    else
        summary+=("$target | ok | ${execs:-?} execs | ${rate:-?}/s | ${cov:-?} | corpus $units")
    fi
done

echo
echo "==> fuzz summary ($limit per target)"
printf '%s\n' "${summary[@]}"
exit $status

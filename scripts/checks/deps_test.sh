#!/usr/bin/env bash
# Runs the Makefile's `deps` recipe against stub `dpkg-query`, `apt-get`, `sudo` and
# `id` on a PATH that holds nothing else but `env`, `grep`, `find`, `mkdir` and `touch`, and checks
# the exact commands it runs. Prints one XCTest-style `Test Case` line per case and
# exits non-zero when any case fails. Usage: scripts/checks/deps_test.sh [MAKEFILE_DIR]
set -uo pipefail
repo=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
make_bin=$(command -v make)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/deps-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

# make_stubs DIR WITH_SUDO: the stub tools and the real tools the recipe may call.
make_stubs() {
  local bin=$1 with_sudo=$2
  mkdir -p "$bin"
  for tool in env grep find mkdir touch; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
  cat > "$bin/id" <<'STUB'
#!/bin/bash
[ "$1" = "-u" ] && echo "$STUB_UID"
STUB
  # Status of a package: its line in $STUB_STATE/status, else unknown (exit 1).
  cat > "$bin/dpkg-query" <<'STUB'
#!/bin/bash
format=""; pkg=""
for a in "$@"; do case $a in -f=*) format=${a#-f=} ;; -W) ;; *) pkg=$a ;; esac; done
status=$(/bin/sed -n "s/^$pkg: //p" "$STUB_STATE/status")
[ -n "$status" ] || { echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; }
printf "${format//\$\{Status\}/$status}"
STUB
  # Records its arguments and DEBIAN_FRONTEND; `install` marks packages installed.
  cat > "$bin/apt-get" <<'STUB'
#!/bin/bash
echo "apt-get $* [DEBIAN_FRONTEND=${DEBIAN_FRONTEND-unset}]" >> "$STUB_STATE/log"
[ -e "$STUB_STATE/apt-fails" ] && exit 100
if [ "$1" = "install" ]; then
  for a in "$@"; do case $a in -*|install) ;; *) echo "$a: install ok installed" >> "$STUB_STATE/status" ;; esac; done
fi
exit 0
STUB
  if [ "$with_sudo" = yes ]; then
    cat > "$bin/sudo" <<'STUB'
#!/bin/bash
echo "sudo $*" >> "$STUB_STATE/log"
exec "$@"
STUB
  fi
  chmod +x "$bin"/*
}

# run_case NAME UID WITH_SUDO STATUS_LINES EXPECTED_RC EXPECTED_LOG EXPECTED_STDERR [TARGET] [FAIL_APT]
run_case() {
  local name=$1 uid=$2 with_sudo=$3 status=$4 want_rc=$5 want_log=$6 want_err=$7 target=${8:-deps} fail_apt=${9:-}
  local dir="$tmp/$name"
  [ "$target" = stamp ] && target="$dir/stamp"
  mkdir -p "$dir/state"
  make_stubs "$dir/bin" "$with_sudo"
  printf "%s" "$status" > "$dir/state/status"
  : > "$dir/state/log"
  [ -n "$fail_apt" ] && touch "$dir/state/apt-fails"
  local rc=0
  env -i PATH="$dir/bin" HOME="$dir" STUB_UID="$uid" STUB_STATE="$dir/state" \
    "$make_bin" --no-print-directory -C "$repo" "$target" DEPS_STAMP="$dir/stamp" \
    > "$dir/stdout" 2> "$dir/stderr" || rc=$?
  local log err out problems=""
  log=$(cat "$dir/state/log"); err=$(cat "$dir/stderr"); out=$(cat "$dir/stdout")
  if [ "$want_rc" = nonzero ]; then [ "$rc" -ne 0 ] || problems+=" exit code $rc, expected non-zero;"
  else [ "$rc" -eq "$want_rc" ] || problems+=" exit code $rc, expected $want_rc;"; fi
  [ "$log" = "$want_log" ] || problems+=" commands run:"$'\n'"$log"$'\n'"expected:"$'\n'"$want_log"$'\n'
  # make prefixes its own failure line; the recipe's message comes first.
  [ "$(printf "%s\n" "$err" | grep -v '^make: \*\*\*')" = "$want_err" ] \
    || problems+=" stderr:"$'\n'"$err"$'\n'"expected:"$'\n'"$want_err"$'\n'
  [ -z "$out" ] || problems+=" stdout not empty: $out;"
  if [ "$target" = "$dir/stamp" ] && [ -z "$problems" ]; then
    [ -e "$dir/stamp" ] || problems+=" no stamp written;"
    "$make_bin" --no-print-directory -C "$repo" "$target" DEPS_STAMP="$dir/stamp" >/dev/null 2>&1 \
      || problems+=" second run failed;"
    [ "$(cat "$dir/state/log")" = "$log" ] || problems+=" second run ran commands;"
  fi
  if [ -z "$problems" ]; then
    echo "Test Case 'DepsRecipeTests.$name' passed"
  else
    echo "$repo/Makefile: error: DepsRecipeTests.$name:$problems"
    echo "Test Case 'DepsRecipeTests.$name' failed"
    failures=$((failures + 1))
  fi
}

all_installed="libcsv-dev: install ok installed
libfftw3-dev: install ok installed
libssl-dev: install ok installed
libxml2-dev: install ok installed
zlib1g-dev: install ok installed
python3-venv: install ok installed
time: install ok installed
"
two_missing="libcsv-dev: install ok installed
libssl-dev: install ok installed
libxml2-dev: install ok installed
zlib1g-dev: install ok installed
python3-venv: install ok installed
"
front="[DEBIAN_FRONTEND=noninteractive]"
update="apt-get update -qq $front"
install_two="apt-get install -y -qq --no-install-recommends libfftw3-dev time $front"
install_all="apt-get install -y -qq --no-install-recommends libcsv-dev libfftw3-dev libssl-dev libxml2-dev zlib1g-dev python3-venv time $front"

run_case testRootAllInstalledRunsNothing 0 no "$all_installed" 0 "" ""
run_case testNonRootAllInstalledRunsNothing 1000 yes "$all_installed" 0 "" ""
run_case testRootInstallsMissingWithoutSudo 0 no "$two_missing" 0 \
  "$update
$install_two" "make deps: installing libfftw3-dev time"
run_case testRootWithSudoPresentStillNoSudo 0 yes "" 0 \
  "$update
$install_all" "make deps: installing libcsv-dev libfftw3-dev libssl-dev libxml2-dev zlib1g-dev python3-venv time"
run_case testNonRootInstallsMissingThroughSudoEnv 1000 yes "$two_missing" 0 \
  "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$update
sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libfftw3-dev time
$install_two" "make deps: installing libfftw3-dev time"
run_case testRemovedPackageWithConfigFilesCountsAsMissing 0 no "libcsv-dev: deinstall ok config-files
libfftw3-dev: install ok installed
libssl-dev: install ok installed
libxml2-dev: install ok installed
zlib1g-dev: install ok installed
python3-venv: install ok installed
time: install ok installed
" 0 "$update
apt-get install -y -qq --no-install-recommends libcsv-dev $front" "make deps: installing libcsv-dev"
run_case testNonRootWithoutSudoFailsNamingPackages 1000 no "$two_missing" nonzero "" \
  "make deps: need root or sudo to install: libfftw3-dev time"
run_case testFailedUpdateStopsBeforeInstall 0 no "$two_missing" nonzero "$update" \
  "make deps: installing libfftw3-dev time" deps fail
# The stamp the other targets wait for: made by one install, then current.
run_case testStampInstallsMissingOnce 0 no "$two_missing" 0 \
  "$update
$install_two" "make deps: installing libfftw3-dev time" stamp

exit $((failures > 0))

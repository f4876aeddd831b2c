#!/usr/bin/env bash
# Proves the packages for the host: builds the wheel (packaging/wheel.sh) and the npm packages
# (packaging/npm.sh) from this checkout, installs the wheel into a fresh virtual environment and
# the npm packages into a fresh npm prefix (nothing fetched: pip --no-index, npm --offline, and
# no install script runs), then runs the README's quick start and `install claude-code
# --dry-run` with each installed binary. Then the release archive of the same binary
# (packaging/archive.sh) is checked against its sha256 file and run, and `cargo publish
# --dry-run` packs the crate and builds it from the package alone. Everything it writes is under
# target/packaging/.
#
# Skips each part with one line when python3 or npm is missing, or when maturin cannot be
# installed from the package registry. Exit 1 when a package does not build, install or work.
set -euo pipefail
cd "$(dirname "$0")/.."

work=target/packaging
out="$work/out"
failed=0
say() { echo "packaging: $*" >&2; }
fail() {
  say "FAIL $*"
  failed=1
}

# The installed binary `bin` runs the README's quick start and wires Claude Code (dry run) from
# a scratch home; `expect_path` is the program `install` (the user's settings) must write (the binary itself,
# never a launcher in front of it).
try_binary() {
  local what="$1" bin expect_path="$3"
  bin="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
  local out_json code home
  set +e
  out_json=$("$bin" --hermes-home examples/hermes-home run pre_tool_call \
    --payload-file examples/payloads/rm-rf.json 2>/dev/null)
  code=$?
  set -e
  if [ "$code" = 2 ] && printf '%s' "$out_json" | grep -q '"action":"block","message":"rm -rf / is not permitted"'; then
    say "ok   $what: the quick start's guard blocks rm -rf / (exit 2)"
  else
    fail "$what: the quick start gave exit $code: $out_json"
  fi
  if "$bin" --hermes-home examples/hermes-home run pre_tool_call \
    --payload-file examples/payloads/ls.json >/dev/null 2>&1; then
    say "ok   $what: ls goes on (exit 0)"
  else
    fail "$what: ls did not go on"
  fi
  home=$(mktemp -d)
  mkdir -p "$home/project/.git"
  local plan
  if plan=$(cd "$home/project" && HOME="$home" "$bin" install claude-code --project --dry-run 2>&1) &&
    printf '%s' "$plan" | grep -q 'hermes-hooks run --agent claude-code PreToolUse'; then
    say "ok   $what: install claude-code --project --dry-run plans the project's wiring"
  else
    fail "$what: install claude-code --project --dry-run: $plan"
  fi
  if plan=$(cd "$home/project" && HOME="$home" "$bin" install claude-code --user --dry-run 2>&1) &&
    printf '%s' "$plan" | grep -qF "$expect_path run --agent claude-code PreToolUse"; then
    say "ok   $what: install claude-code --user writes $expect_path itself"
  else
    fail "$what: install claude-code --user does not write $expect_path: $plan"
  fi
  # Wired for the user, then `doctor` with this install first on PATH: the wiring names the
  # binary PATH runs (through the npm launcher too), so there is no other install to warn of.
  # With another copy first on PATH instead, it warns.
  local report other
  other="$home/other-install"
  mkdir -p "$other"
  cp "$expect_path" "$other/hermes-hooks"
  if (cd "$home/project" && HOME="$home" "$bin" install claude-code --user >/dev/null 2>&1) &&
    report=$(cd "$home/project" && HOME="$home" PATH="$(dirname "$bin"):$PATH" \
      "$bin" doctor --no-exec --json 2>/dev/null; true) &&
    printf '%s' "$report" | grep -q '"check":"wiring"' &&
    ! printf '%s' "$report" | grep -q 'another install' &&
    report=$(cd "$home/project" && HOME="$home" PATH="$other:$PATH" \
      "$bin" doctor --no-exec --json 2>/dev/null; true) &&
    printf '%s' "$report" | grep -q 'another install'; then
    say "ok   $what: doctor finds the user wiring names the hermes-hooks on PATH, and warns when another one is first"
  else
    fail "$what: doctor on the user wiring: $report"
  fi
  # The two commands from the package to a guarded agent: `setup` writes and approves the
  # recommended packs and wires the agent found (a stand-in `claude` on PATH), whose wiring then
  # blocks a hard reset in a project setup never saw.
  local fresh="$home/fresh" answer
  mkdir -p "$fresh/bin" "$fresh/elsewhere/.git"
  printf '#!/bin/sh\necho "2.1.197 (Claude Code)"\n' >"$fresh/bin/claude"
  chmod +x "$fresh/bin/claude"
  if (cd "$fresh" && HOME="$fresh" PATH="$fresh/bin:$PATH" HERMES_HOME="$fresh/.hermes" \
    "$bin" setup --yes >/dev/null 2>&1) &&
    grep -qF "$expect_path run --agent claude-code PreToolUse" "$fresh/.claude/settings.json" &&
    answer=$(cd "$fresh/elsewhere" && printf '%s' '{"tool_name":"Bash","tool_input":{"command":"git reset --hard"}}' |
      HOME="$fresh" HERMES_HOME="$fresh/.hermes" "$bin" run --agent claude-code PreToolUse 2>/dev/null) &&
    printf '%s' "$answer" | grep -q '"permissionDecision":"deny"'; then
    say "ok   $what: setup --yes approves the packs and wires Claude Code, which then denies git reset --hard"
  else
    fail "$what: setup did not guard Claude Code: ${answer:-no answer}"
  fi
  if (cd "$home/project" && HOME="$home" HERMES_HOME="$home/.hermes" "$bin" install hermes \
    --dry-run >/dev/null 2>&1); then
    say "ok   $what: install hermes --dry-run plans the plugin"
  else
    fail "$what: install hermes --dry-run failed"
  fi
  rm -rf "$home"
}

rm -rf "$out"
mkdir -p "$out"

if ! command -v python3 >/dev/null; then
  say "wheel skipped: python3 is not installed"
elif ! python3 -m venv "$work/probe-venv" >/dev/null 2>&1; then
  say "wheel skipped: python3 cannot create a virtual environment (is the venv module installed?)"
elif ! bash packaging/wheel.sh "$out" >"$work/wheel.log" 2>&1; then
  if grep -q "maturin" "$work/wheel.log" && ! ls "$work"/maturin-*/bin/maturin >/dev/null 2>&1; then
    say "wheel skipped: maturin cannot be installed from the package registry"
  else
    tail -n 20 "$work/wheel.log" >&2
    fail "the wheel did not build"
  fi
else
  wheel=$(ls "$out"/*.whl)
  say "ok   built $(basename "$wheel") ($(du -k "$wheel" | cut -f1) KiB)"
  # The binary maturin built: the npm package and the archive are made from the same one, as a
  # release makes them.
  built=target/release/hermes-hooks
  venv="$work/try-venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  if "$venv/bin/pip" install --disable-pip-version-check --quiet --no-index "$wheel"; then
    try_binary "pip" "$venv/bin/hermes-hooks" "$PWD/$venv/bin/hermes-hooks"
    if [ -f "$venv/share/man/man1/hermes-hooks.1" ] &&
      [ -f "$venv/share/man/man1/hermes-hooks-setup.1" ] &&
      [ -f "$venv/share/bash-completion/completions/hermes-hooks" ] &&
      [ -f "$venv/share/zsh/site-functions/_hermes-hooks" ]; then
      say "ok   pip: the man pages and completion scripts are installed under share/"
    else
      fail "pip: no man page or completion script under $venv/share"
    fi
  else
    fail "the wheel does not install"
  fi
  rm -rf "$venv"
fi
rm -rf "$work/probe-venv"

if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
  say "npm packages skipped: node or npm is not installed"
elif ! HERMES_HOOKS_BINARY="${built:-}" bash packaging/npm.sh "$out" >"$work/npm.log" 2>&1; then
  tail -n 20 "$work/npm.log" >&2
  fail "the npm packages did not build"
else
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
  platform=$(node -p 'process.platform + "-" + process.arch')
  main="$out/hermes-hooks-$version.tgz"
  binary_package="$out/hermes-hooks-$platform-$version.tgz"
  say "ok   built $(basename "$main") ($(du -k "$main" | cut -f1) KiB) and $(basename "$binary_package") ($(du -k "$binary_package" | cut -f1) KiB)"
  prefix="$work/try-npm"
  rm -rf "$prefix"
  if npm install --global --prefix "$prefix" --offline --ignore-scripts --no-audit --no-fund \
    "$binary_package" "$main" >"$work/npm-install.log" 2>&1; then
    try_binary "npm" "$prefix/bin/hermes-hooks" \
      "$PWD/$prefix/lib/node_modules/@hermes-hooks/$platform/bin/hermes-hooks"
    if [ -e "$prefix/share/man/man1/hermes-hooks.1" ] &&
      [ -f "$prefix/lib/node_modules/hermes-hooks/completions/hermes-hooks.bash" ]; then
      say "ok   npm: the man pages are linked into share/man, the completion scripts shipped"
    else
      fail "npm: no man page under $prefix/share/man or no completion scripts in the package"
    fi
    # `npx hermes-hooks ...` finds the installed package and needs nothing from the registry.
    npx_home=$(mktemp -d)
    npx_prefix="$PWD/$prefix"
    mkdir -p "$npx_home/project/.git"
    if (cd "$npx_home/project" && HOME="$npx_home" npm_config_prefix="$npx_prefix" \
      npx --offline hermes-hooks install claude-code --dry-run 2>&1 |
      grep -q 'hermes-hooks run --agent claude-code PreToolUse'); then
      say "ok   npm: npx hermes-hooks install claude-code --dry-run"
    else
      fail "npm: npx hermes-hooks install claude-code --dry-run"
    fi
    rm -rf "$npx_home"
    # Another package in the scope, however it sorts, is never what the launcher runs.
    foreign="$prefix/lib/node_modules/@hermes-hooks/aaa/bin"
    mkdir -p "$foreign"
    printf '#!/bin/sh\ntouch "%s/foreign-ran"\n' "$PWD/$work" >"$foreign/hermes-hooks"
    chmod 755 "$foreign/hermes-hooks"
    rm -f "$work/foreign-ran"
    "$prefix/bin/hermes-hooks" --version >/dev/null 2>&1 || true
    if [ -e "$work/foreign-ran" ]; then
      fail "npm: the launcher ran another package of its scope"
    else
      say "ok   npm: the launcher runs only the platform packages a release publishes"
    fi
    rm -rf "$prefix/lib/node_modules/@hermes-hooks/aaa" "$work/foreign-ran"
    # The launcher keeps the binary's exit status and streams.
    set +e
    echo '{}' | "$prefix/bin/hermes-hooks" run no_such_event >/dev/null 2>&1
    code=$?
    set -e
    [ "$code" = 1 ] && say "ok   npm: the launcher passes exit 1 through" ||
      fail "npm: the launcher turned exit 1 into $code"
  else
    tail -n 20 "$work/npm-install.log" >&2
    fail "the npm packages do not install"
  fi
  rm -rf "$prefix"
fi

host=$(rustc -vV | sed -n 's/^host: //p')
if [ -z "${built:-}" ]; then
  cargo build --release --locked --quiet --bin hermes-hooks
  built=target/release/hermes-hooks
fi
if archive=$(bash packaging/archive.sh "$out" "$host" "$built") &&
  (cd "$out" && sha256sum -c --quiet "$(basename "$archive").sha256") &&
  tar -xzf "$archive" -C "$work" &&
  "$work/$(basename "$archive" .tar.gz)/hermes-hooks" --version >/dev/null; then
  say "ok   built $(basename "$archive") ($(du -k "$archive" | cut -f1) KiB); its sha256 checks and its binary runs"
else
  fail "the release archive for $host"
fi
rm -rf "$work/$(basename "${archive:-x}" .tar.gz)"

if cargo publish --dry-run --locked --allow-dirty --quiet >"$work/publish.log" 2>&1; then
  say "ok   cargo publish --dry-run"
else
  tail -n 20 "$work/publish.log" >&2
  fail "cargo publish --dry-run"
fi

exit "$failed"

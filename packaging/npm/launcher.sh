#!/bin/sh
# The `hermes-hooks` command of the npm package: runs the binary of the platform package npm
# installed with it (@hermes-hooks/<platform>-<arch>, an optional dependency: only the one for
# this machine is installed) through exec, so its arguments, standard streams, exit status and
# signals are the binary's own. A shell script and not a Node one: agents call `hermes-hooks run`
# on every event, and a shell starts in about a millisecond where Node takes tens.
self=$0
# npm links this file from its bin folder: follow the links to the package.
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
case $self in
  */*) package=${self%/*}/.. ;;
  *) package=.. ;;
esac
# The platform package is beside this one (npm hoists it) or inside it. Only the names a release
# publishes (packaging/npm.sh) are tried: another package in the scope is never run.
for place in "$package/.." "$package/node_modules"; do
  for platform in linux-x64 linux-arm64 darwin-x64 darwin-arm64; do
    binary=$place/@hermes-hooks/$platform/bin/hermes-hooks
    if [ -x "$binary" ]; then
      exec "$binary" "$@"
    fi
  done
done
echo "hermes-hooks: the binary for this platform is not installed (npm installs it as an optional dependency, @hermes-hooks/<platform>-<arch>; an install with --omit=optional or --no-optional leaves it out): install hermes-hooks again, or use pip install hermes-hooks or cargo install hermes-hooks" >&2
exit 1

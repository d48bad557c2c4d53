#!/bin/sh
# Refresh the vendored Discord Embedded App SDK (the live board's Activity, #33).
#
# Run by maintainers only, never by users or tests: it fetches the pinned package from the
# npm registry and bundles it with esbuild into one ES module, so the page needs no build
# step and `pip install -e .` stays the one set-up step. Needs node and npm.
#
#   sh scripts/vendor-discord-sdk.sh
set -eu
SDK_VERSION=2.5.0
ESBUILD_VERSION=0.28.2
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bot/web/static/vendor"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --save-exact \
    "@discord/embedded-app-sdk@$SDK_VERSION" "esbuild@$ESBUILD_VERSION" "tslib@2" >/dev/null
# (tslib only for its licence: the SDK carries a copy without one.)
cat > entry.js <<'JS'
export * from "@discord/embedded-app-sdk";
JS
mkdir -p "$out"
./node_modules/.bin/esbuild entry.js --bundle --format=esm --target=es2020 \
    --legal-comments=inline --log-level=warning \
    --banner:js="/* @discord/embedded-app-sdk $SDK_VERSION (MIT), bundled by scripts/vendor-discord-sdk.sh */" \
    --outfile="$out/discord-sdk.js"
# The SDK's licence, then those of the libraries it carries inside its own output/lib.
licence="$out/LICENSE-discord-embedded-app-sdk.txt"
{
    echo "@discord/embedded-app-sdk $SDK_VERSION"
    echo
    cat node_modules/@discord/embedded-app-sdk/LICENSE*
    for dep in $(ls node_modules/@discord/embedded-app-sdk/output/lib); do
        [ -d "node_modules/$dep" ] || continue
        echo
        echo "----------------------------------------------------------------------"
        version=$(node -p "require('./node_modules/$dep/package.json').version")
        echo "$dep: the SDK carries a copy of it (this licence from its version $version)"
        echo
        cat "node_modules/$dep"/LICEN[CS]E* "node_modules/$dep"/licen[cs]e* 2>/dev/null || true
    done
} > "$licence"
printf '%s\n' "@discord/embedded-app-sdk $SDK_VERSION from the npm registry, bundled with esbuild $ESBUILD_VERSION" \
    "into discord-sdk.js by scripts/vendor-discord-sdk.sh (its dependencies' licences are inlined" \
    "as comments in the bundle)." > "$out/README.txt"
echo "wrote $out/discord-sdk.js"

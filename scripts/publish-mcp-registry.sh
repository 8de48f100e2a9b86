#!/usr/bin/env bash
# npm run release:mcp-registry: publishes server.json, agentchat-mcp's entry in the MCP registry,
# for the version the release has just published to npm. The release workflow runs it after
# `npm run release`, in the job that holds the GitHub identity token: `mcp-publisher login
# github-oidc` trades that token for the right to publish under io.github.<owner>/, so no
# registry secret is stored. It cannot run elsewhere.
#
# The registry checks the npm package before it takes the entry: that the version exists and that
# its package.json's mcpName is server.json's name. npm may take a moment to serve a version it
# has just taken, so this waits for it first.
#
# Then the desktop bundle: built from the tarball npm serves (npm run build:mcpb), attached to the
# version's GitHub release (gh, with the job's GITHUB_TOKEN as GH_TOKEN), and listed in server.json
# with its download URL and SHA-256 (scripts/sync-server-json.ts --mcpb) before the publish.
set -euo pipefail
cd "$(dirname "$0")/.."

npx tsx scripts/sync-server-json.ts --check
name=$(node -p "require('./package.json').name")
version=$(node -p "require('./package.json').version")
mcp_name=$(node -p "require('./server.json').name")

for attempt in $(seq 1 30); do
  if [ "$(npm view "$name@$version" mcpName 2>/dev/null)" = "$mcp_name" ]; then break; fi
  if [ "$attempt" = 30 ]; then
    echo "npm does not serve $name@$version with mcpName $mcp_name: nothing published to the MCP registry" >&2
    exit 1
  fi
  sleep 10
done

# The bundle, from the very tarball npm serves, on the release that changeset publish made (v<version>).
work=$(mktemp -d)
tools=$(mktemp -d)
trap 'rm -rf "$work" "$tools"' EXIT
tarball=$(npm pack "$name@$version" --pack-destination "$work" --silent)
npm run build:mcpb -- --tarball "$work/$tarball" --out "$work/agentchat.mcpb"
gh release upload "v$version" "$work/agentchat.mcpb" --clobber
npx tsx scripts/sync-server-json.ts --mcpb "$work/agentchat.mcpb"

# mcp-publisher, the registry's own CLI, from its latest GitHub release as the registry documents:
# the registry refuses an older binary's sign-in ("invalid audience"), so it is not pinned.
os=$(uname -s | tr '[:upper:]' '[:lower:]')
arch=$(uname -m | sed 's/x86_64/amd64/;s/aarch64/arm64/')
curl -fsSL "https://github.com/modelcontextprotocol/registry/releases/latest/download/mcp-publisher_${os}_${arch}.tar.gz" |
  tar -xz -C "$tools" mcp-publisher

"$tools/mcp-publisher" login github-oidc
"$tools/mcp-publisher" publish server.json

#!/usr/bin/env bash
# The documentation keeps up with the tool: every long option that
# `lockstep <command> --help` prints (and `./lockstep test --help`, the
# bash script) is named on that command's page in docs/, every relative
# link of README.md and docs/*.md points at a file that is there, no page
# carries an absolute path of a machine, and the README still shows the
# test command CI runs (.ci/run).
#   docs_test.sh LOCKSTEP SOURCE_DIR
# Links to a heading (page.md#anchor) must name one of its headings.
# Prints one FAILED line per problem, naming the command, option and page
# (or the file and link); exit status 1 when there is one.
set -uo pipefail
cli=$1
src=$(cd "$2" && pwd)
fail=0
failed() { echo "FAILED: $*"; fail=1; }

# The page that documents each command; a command not listed here must
# have docs/<command>.md.
page_of() {
  case $1 in
    fuzz) echo docs/fuzzing.md ;;
    *) echo "docs/$1.md" ;;
  esac
}

# long_options: the long options of a CLI11 --help text on stdin, from the
# option column only ("  -j,--jobs INT ...", "  --json TEXT ..."); --help
# itself is every command's and needs no page.
long_options() {
  grep -E '^[[:space:]]+(-[A-Za-z0-9],[[:space:]]*)?--[A-Za-z0-9]' |
    sed -E 's/^[[:space:]]+(-[A-Za-z0-9],[[:space:]]*)?(--[A-Za-z0-9][A-Za-z0-9-]*).*/\2/' |
    grep -vx -- '--help' | sort -u
}

# documented PAGE OPTION: the page names the option as code (`--opt`,
# `--opt N`), not as part of a longer one.
documented() {
  grep -qE -- "\`$2([^A-Za-z0-9-]|$)" "$src/$1"
}

## Every command of `lockstep --help`, every long option of its --help.
top=$("$cli" --help) || failed "lockstep --help: exit status $?"
commands=$(printf '%s\n' "$top" |
  sed -n '/^[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:/,$p' | sed 1d |
  grep -E '^[[:space:]]+[a-z][a-z0-9-]*([[:space:]]|$)' | awk '{print $1}')
[ -n "$commands" ] || failed "lockstep --help lists no subcommands (has CLI11's format changed?)"
checked=0
for cmd in $commands; do
  page=$(page_of "$cmd")
  if [ ! -f "$src/$page" ]; then
    failed "lockstep $cmd: no page $page"
    continue
  fi
  help=$("$cli" "$cmd" --help) || { failed "lockstep $cmd --help: exit status $?"; continue; }
  opts=$(printf '%s\n' "$help" | long_options)
  [ -n "$opts" ] || failed "lockstep $cmd --help: no long option found (has CLI11's format changed?)"
  for opt in $opts; do
    checked=$((checked + 1))
    documented "$page" "$opt" || failed "lockstep $cmd: option $opt is not documented in $page"
  done
done
# --module belongs to the top level; every command takes it.
for opt in $(printf '%s\n' "$top" | long_options); do
  for cmd in $commands; do
    page=$(page_of "$cmd")
    [ -f "$src/$page" ] || continue
    checked=$((checked + 1))
    documented "$page" "$opt" || failed "lockstep $cmd: option $opt (every command's) is not documented in $page"
  done
done

## `./lockstep test` is ci/test, a bash script: every --option its --help
## names.
test_help=$("$src/ci/test" --help) || failed "ci/test --help: exit status $?"
test_opts=$(printf '%s\n' "$test_help" | grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u)
[ -n "$test_opts" ] || failed "ci/test --help names no option"
for opt in $test_opts; do
  checked=$((checked + 1))
  documented docs/test.md "$opt" || failed "lockstep test: option $opt is not documented in docs/test.md"
done

## Relative links point at files that exist; no absolute machine paths.
# anchors PAGE: the anchors of its headings (outside code blocks), as
# GitHub makes them: lower case, punctuation dropped, blanks to hyphens.
anchors() {
  awk '/^```/ { code = !code; next } !code && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
    tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}
pages=("$src/README.md" "$src"/docs/*.md)
links=0
for f in "${pages[@]}"; do
  rel=${f#"$src"/}
  dir=$(dirname "$f")
  # [text](target) and [text](target "title"); the target up to a blank or ')'.
  while IFS= read -r target; do
    case $target in
      http://*|https://*|mailto:*|'') continue ;;
    esac
    path=${target%%#*}
    links=$((links + 1))
    if [ -n "$path" ] && [ ! -e "$dir/$path" ]; then
      failed "$rel: link to $target, but $path is not there"
      continue
    fi
    # A #fragment must be one of the target page's headings, as GitHub
    # makes their anchors.
    if [[ $target == *'#'* ]]; then
      page=$f
      [ -n "$path" ] && page=$dir/$path
      anchors "$page" | grep -qxF -- "${target#*#}" ||
        failed "$rel: link to $target, but ${path:-$rel} has no heading with that anchor"
    fi
  done < <(grep -oE '\]\([^) ]+' "$f" | sed 's/^](//')
  if abs=$(grep -nE '(^|[^A-Za-z0-9_.~-])/(work|home|root)/' "$f"); then
    failed "$rel: an absolute path of a machine: $(printf '%s\n' "$abs" | head -n 3)"
  fi
done

## The README's test command is the one CI runs.
grep -qF './lockstep test --full' "$src/README.md" || failed "README.md lacks './lockstep test --full' (.ci/run's command)"
grep -qF './lockstep test --full' "$src/.ci/run" || failed ".ci/run no longer runs './lockstep test --full': update README.md's Quick start"

echo "docs: $checked options checked in $(printf '%s\n' "$commands" | wc -l) commands and test; $links relative links in ${#pages[@]} pages"
exit $fail

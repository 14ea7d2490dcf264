#!/usr/bin/env bash
# The man page and the shell completions, made from what `dropjudge --help`
# prints, which config.c writes from its one table of flags: the man page's
# OPTIONS (docs/man/dropjudge.1.scd, @OPTIONS@) and the flags the bash and
# zsh completions offer can therefore not drift from the program. The
# version comes from `dropjudge --version` (include/dropjudge/version.h).
# scdoc turns the page into roff.
#
#   scripts/gen-docs.sh BIN OUTDIR   writes OUTDIR/dropjudge.1,
#                                    OUTDIR/dropjudge.bash, OUTDIR/_dropjudge
#                                    and OUTDIR/dropjudge-check.1 (its own page)
set -euo pipefail
bin=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
command -v scdoc >/dev/null || { echo "gen-docs: scdoc missing (scripts/deps.sh build installs it)" >&2; exit 1; }
mkdir -p "$out"
help=$("$bin" --help)
version=$("$bin" --version | sed -n '1s/^dropjudge //p')
[ -n "$version" ] || { echo "gen-docs: no version from $bin --version" >&2; exit 1; }

# The serve flags: "  --flag METAVAR, VAR=METAVAR" then lines indented by 6.
flags=$(printf '%s\n' "$help" | awk '/^  --[a-z-]+ [^ ]+, [A-Z_]+=/ { print }')
# scdoc markup: escape its two emphasis characters in the help's prose.
# Each flag's help lines joined into one paragraph; a GnuTLS priority string
# cut after a ':' keeps its lines (scdoc's "++" line break), so that it
# stays one string and no line is too long to fill.
options=$(printf '%s\n' "$help" | awk '
	function esc(s) { gsub(/\\/, "\\\\", s); gsub(/\*/, "\\*", s); gsub(/_/, "\\_", s); return s }
	function flush() { if (text != "") print "\t" text; text = "" }
	/^  --[a-z-]+ [^ ]+, [A-Z_]+=/ {
		if (item) { flush(); print "" }
		split($0, a, /[ ,=]+/);
		printf "*%s* _%s_, *%s*=_%s_\n", a[2], esc(a[3]), esc(a[4]), esc(a[5]);
		item = 1; next
	}
	item && /^      / {
		line = $0; sub(/^ +/, "", line);
		if (text ~ /:$/ && line !~ / /) text = text "++\n\t" (line ~ /^[-+]/ ? "\\" : "") esc(line);
		else if (text == "") text = esc(line);
		else text = text " " esc(line);
		next
	}
	item { flush(); exit }
')
sed -e "s/@VERSION@/$version/g" "$here/docs/man/dropjudge.1.scd" |
	awk -v options="$options" '$0 == "@OPTIONS@" { print options; next } { print }' |
	scdoc >"$out/dropjudge.1"
sed -e "s/@VERSION@/$version/g" "$here/docs/man/dropjudge-check.1.scd" | scdoc >"$out/dropjudge-check.1"

names=$(printf '%s\n' "$flags" | awk '{ print $1 }' | tr '\n' ' ')
# Flags whose value is a file name.
file_flags=$(printf '%s\n' "$flags" | awk '$2 == "FILE," { print $1 }' | tr '\n' ' ')
[ -n "$names" ] || { echo "gen-docs: no flags found in --help" >&2; exit 1; }

cat >"$out/dropjudge.bash" <<EOT
# bash completion for dropjudge $version (made by scripts/gen-docs.sh from --help)
_dropjudge() {
	local cur prev cmd
	cur=\${COMP_WORDS[COMP_CWORD]}
	prev=\${COMP_WORDS[COMP_CWORD-1]}
	cmd=\${COMP_WORDS[1]}
	case \$prev in
	$(printf '%s' "$file_flags" | sed 's/ $//; s/ /|/g')) COMPREPLY=(\$(compgen -f -- "\$cur")); return ;;
	--log-format) COMPREPLY=(\$(compgen -W "json text off" -- "\$cur")); return ;;
	--metrics-open) COMPREPLY=(\$(compgen -W "0 1" -- "\$cur")); return ;;
	--problem) COMPREPLY=(\$(compgen -W "monomino-domino puyo" -- "\$cur")); return ;;
	--protocol) COMPREPLY=(\$(compgen -W "testlib kattis cms dmoj" -- "\$cur")); return ;;
	--format) COMPREPLY=(\$(compgen -W "kattis polygon domjudge cms" -- "\$cur")); return ;;
	--host|--port|--threads|--max-*|--timeout|--drain-timeout|--header-timeout|--body-timeout|--connection-memory|--tls-priorities|--cors-origins|--tests|--seed|--min-chains) return ;;
	esac
	if [ "\$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=(\$(compgen -W "serve solve search healthcheck check validate package --help --version $names" -- "\$cur"))
		return
	fi
	case \$cmd in
	serve|-*) COMPREPLY=(\$(compgen -W "$names --help" -- "\$cur")) ;;
	healthcheck) COMPREPLY=(\$(compgen -W "--host --port --tls-cert --help" -- "\$cur")) ;;
	solve)
		if [ "\$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=(\$(compgen -W "monomino-domino puyo --help" -- "\$cur"))
		elif [ "\${COMP_WORDS[2]}" = puyo ] && [[ \$cur == -* ]]; then
			COMPREPLY=(\$(compgen -W "--lines --ndjson" -- "\$cur"))
		elif [[ \$cur == -* ]]; then
			COMPREPLY=(\$(compgen -W "--ndjson" -- "\$cur"))
		else
			COMPREPLY=(\$(compgen -f -- "\$cur"))
		fi ;;
	search)
		if [ "\$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=(\$(compgen -W "puyo --help" -- "\$cur"))
		elif [[ \$cur == -* ]]; then
			COMPREPLY=(\$(compgen -W "--ndjson" -- "\$cur"))
		else
			COMPREPLY=(\$(compgen -f -- "\$cur"))
		fi ;;
	check|validate) COMPREPLY=(\$(compgen -W "--problem --protocol --help" -- "\$cur")) ;;
	package) COMPREPLY=(\$(compgen -W "--problem --format --tests --seed --min-chains --help" -- "\$cur")) ;;
	esac
}
complete -o default -F _dropjudge dropjudge
EOT

{
	echo "#compdef dropjudge"
	echo "# zsh completion for dropjudge $version (made by scripts/gen-docs.sh from --help)"
	echo "local -a serve_flags"
	echo "serve_flags=("
	printf '%s\n' "$help" | awk '
		function q(s) { gsub(/\x27/, "", s); gsub(/\[/, "(", s); gsub(/\]/, ")", s); gsub(/:/, " ", s); return s }
		/^  --[a-z-]+ [^ ]+, [A-Z_]+=/ {
			split($0, a, /[ ,=]+/); flag = a[2]; meta = a[3]; getline line; sub(/^ +/, "", line);
			act = (meta == "FILE") ? "_files" : (flag == "--log-format") ? "(json text off)" : (flag == "--metrics-open") ? "(0 1)" : " ";
			printf "\t\x27%s=[%s]:%s:%s\x27\n", flag, q(line), meta, act
		}'
	echo ")"
	cat <<'EOT'
if (( CURRENT == 2 )); then
	_alternative 'subcommands:subcommand:(serve solve search healthcheck check validate package)' \
		'flags:flag:(--help --version)' && return
	_arguments $serve_flags
	return
fi
case $words[2] in
serve | -*) _arguments '*:: :->none' $serve_flags ;;
solve) _arguments '1:problem:(monomino-domino puyo)' '--lines[one field per line]' '--ndjson[a stream of JSON cases]' '*:file:_files' ;;
search) _arguments '1:problem:(puyo)' '--ndjson[a stream of JSON requests]' '*:file:_files' ;;
healthcheck) _arguments '--host=[address]:ADDR: ' '--port=[port]:N: ' '--tls-cert=[certificate]:FILE:_files' ;;
check | validate) _arguments '--problem=[problem]:P:(monomino-domino puyo)' '--protocol=[protocol]:X:(testlib kattis cms dmoj)' '*:file:_files' ;;
package) _arguments '--problem=[problem]:P:(monomino-domino puyo)' '--format=[format]:F:(kattis polygon domjudge cms)' '--tests=[tests]:N: ' '--seed=[seed]:S: ' '--min-chains=[chains]:M: ' '1:out:_files' ;;
esac
EOT
} >"$out/_dropjudge"

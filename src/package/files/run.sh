#!/bin/sh
# @WHAT@ of this package, in the Kattis problem package format:
#   @USAGE@
# It runs `dropjudge @SUBCOMMAND@ --problem @PROBLEM@ --protocol kattis`, which
# exits 42 (accept) or 43 (reject); anything else is a judge error.
# dropjudge is found on PATH, or named by the DROPJUDGE environment variable.
exec "${DROPJUDGE:-dropjudge}" @SUBCOMMAND@ --problem @PROBLEM@ --protocol kattis "$@"

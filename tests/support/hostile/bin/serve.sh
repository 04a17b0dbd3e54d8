# SPDX-License-Identifier: GPL-2.0-or-later
# tests/support/hostile/bin/serve.sh - sourced by the stand-in box's tools:
# serve PATH, a scenario's file (tests/support/hostile/ssh says how).
scen=${NASBENCH_HOSTILE:?}
serve() {
	if [ ! -d "$1" ]; then
		[ -e "$1" ] || return 1
		/bin/cat "$1"
		return
	fi
	_n=0
	[ -f "$1/.n" ] && read -r _n <"$1/.n"
	_n=$((_n + 1))
	echo "$_n" >"$1/.n"
	if [ -x "$1/gen" ]; then
		"$1/gen" "$_n"
	elif [ -e "$1/forever" ]; then
		read -r _l <"$1/forever"
		exec yes "$_l"
	elif [ -e "$1/slow" ]; then
		while :; do
			while IFS= read -r _l; do
				printf '%s\n' "$_l"
				sleep 1
			done <"$1/slow"
		done
	else
		while [ "$_n" -gt 1 ] && [ ! -e "$1/$_n" ]; do _n=$((_n - 1)); done
		/bin/cat "$1/$_n"
	fi
}

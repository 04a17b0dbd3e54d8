# SPDX-License-Identifier: GPL-2.0-or-later
# ci/testbox.d/iscsi.sh - tgtd with file-backed LUNs (sourced by ci/testbox).
#
# One tgtd on $(tb_addr):$TB_ISCSI_PORT with its own control port (-C), so it
# never touches a system tgtd.  Targets (every disk is LUN 1; tgt's LUN 0 is
# its controller):
#   iqn.2026-11.org.nasbench:wb     256 MiB, write-back (the page cache);
#                                   LUN 2: 32 MiB with 4096-byte blocks (4Kn)
#   iqn.2026-11.org.nasbench:sync   256 MiB, --bsoflags sync (each write on disk)
#   iqn.2026-11.org.nasbench:tmpfs  64 MiB on a tmpfs (sync is free there)
#   iqn.2026-11.org.nasbench:chap   32 MiB, CHAP user nbchap, password in
#                                   $TB_STATE/iscsi/chap.pass (random per up)
#   iqn.2026-11.org.nasbench:ext4   32 MiB holding an ext4 file system
# LUN files are sparse, under $TB_STATE/iscsi; tgtd's pid is $TB_STATE/tgtd.pid.

TB_ISCSI_CTL=${NASBENCH_TESTBOX_ISCSI_CTL:-26}
TB_ISCSI_PORT=${NASBENCH_TESTBOX_ISCSI_PORT:-3262}
TB_ISCSI_IQN=iqn.2026-11.org.nasbench
TB_ISCSI_DIR=$TB_STATE/iscsi
TB_ISCSI_PID=$TB_STATE/tgtd.pid

tb_iscsi_adm() { tgtadm -C "$TB_ISCSI_CTL" --lld iscsi "$@"; }

# The testbox is shared: several 'up' and 'down' may run at once.  One lock
# serialises them (released when the calling ci/testbox exits; tgtd is
# started without the lock's descriptor, or it would hold it for ever).
tb_iscsi_lock() {
	mkdir -p "$TB_STATE"
	exec {TB_ISCSI_LOCKFD}>"$TB_STATE/iscsi.lock"
	flock -w 120 "$TB_ISCSI_LOCKFD" || tb_die "iscsi: testbox lock busy for 2 minutes"
}

# The pid of the tgtd that serves our control port, when it is not the one
# in the pid file (its pid file was lost in a race): adopt it.
tb_iscsi_adopt() {
	local pid
	tb_iscsi_adm --op show --mode sys >/dev/null 2>&1 || return 1
	pid=$(pgrep -x -f "tgtd -f -C $TB_ISCSI_CTL --iscsi portal=$(tb_addr):$TB_ISCSI_PORT" | head -1)
	[ -n "$pid" ] || return 1
	echo "$pid" > "$TB_ISCSI_PID"
	tb_log "iscsi: adopted the running tgtd $pid"
}

# tb_iscsi_target TID NAME FILE SIZE [--bsoflags sync]
tb_iscsi_target() {
	local tid=$1 name=$2 file=$3 size=$4
	shift 4
	{ [ -e "$file" ] || truncate -s "$size" "$file"; } &&
	tb_iscsi_adm --op new --mode target --tid "$tid" -T "$TB_ISCSI_IQN:$name" &&
	tb_iscsi_adm --op new --mode logicalunit --tid "$tid" --lun 1 -b "$file" "$@" &&
	tb_iscsi_adm --op bind --mode target --tid "$tid" -I ALL
}

# The targets (see the top of this file).
tb_iscsi_targets() {
	local pass=$1
	tb_iscsi_target 1 wb "$TB_ISCSI_DIR/wb.img" 256M &&
	truncate -s 32M "$TB_ISCSI_DIR/wb4k.img" &&
	tb_iscsi_adm --op new --mode logicalunit --tid 1 --lun 2 -b "$TB_ISCSI_DIR/wb4k.img" \
		--blocksize 4096 &&
	tb_iscsi_target 2 sync "$TB_ISCSI_DIR/sync.img" 256M --bsoflags sync &&
	tb_iscsi_target 3 tmpfs "$TB_ISCSI_DIR/tmpfs/tmpfs.img" 64M &&
	tb_iscsi_target 4 chap "$TB_ISCSI_DIR/chap.img" 32M &&
	tb_iscsi_adm --op new --mode account --user nbchap --password "$pass" &&
	tb_iscsi_adm --op bind --mode account --tid 4 --user nbchap &&
	tb_iscsi_target 5 ext4 "$TB_ISCSI_DIR/ext4.img" 32M
}

# Up and down hold the lock only while they run: servers started after them
# (other modules) must not inherit it.
tb_iscsi_up() { local rc=0; tb_iscsi_lock; tb_iscsi_up_locked || rc=$?; tb_iscsi_unlock; return $rc; }
tb_iscsi_down() { local rc=0; tb_iscsi_lock; tb_iscsi_down_locked || rc=$?; tb_iscsi_unlock; return $rc; }
tb_iscsi_unlock() { exec {TB_ISCSI_LOCKFD}>&-; }

tb_iscsi_up_locked() {
	local addr pass
	if tb_alive "$TB_ISCSI_PID"; then
		tb_iscsi_adm --op show --mode sys >/dev/null 2>&1 && return 0
		# dying (killed by a fault test) or wedged: make sure it is gone
		tb_stop_pid "$TB_ISCSI_PID" 3
	elif tb_iscsi_adopt; then
		return 0
	fi
	command -v tgtd >/dev/null || { tb_log "iscsi: tgtd is missing (apt-get install tgt)"; return 1; }
	addr=$(tb_addr)
	mkdir -p "$TB_ISCSI_DIR/tmpfs" || return 1
	mountpoint -q "$TB_ISCSI_DIR/tmpfs" ||
		mount -t tmpfs -o size=80m,mode=0700 nbtb-iscsi "$TB_ISCSI_DIR/tmpfs" || return 1
	if [ ! -e "$TB_ISCSI_DIR/ext4.img" ]; then
		truncate -s 32M "$TB_ISCSI_DIR/ext4.img" &&
		mkfs.ext4 -q -F -L nbtb-ext4 "$TB_ISCSI_DIR/ext4.img" || return 1
	fi
	[ -s "$TB_ISCSI_DIR/chap.pass" ] ||
		(umask 077; head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n' | sed "s/^/nb/" > "$TB_ISCSI_DIR/chap.pass")
	pass=$(cat "$TB_ISCSI_DIR/chap.pass")
	# started directly (not through a function) so $! is tgtd's own pid
	if [ -f "$TB_STATE/netns" ]; then set -- ip netns exec "$TB_NS"; else set --; fi
	"$@" tgtd -f -C "$TB_ISCSI_CTL" --iscsi "portal=$addr:$TB_ISCSI_PORT" \
		>"$TB_ISCSI_DIR/tgtd.log" 2>&1 </dev/null {TB_ISCSI_LOCKFD}>&- &
	echo $! > "$TB_ISCSI_PID"
	for _ in $(seq 100); do
		tb_iscsi_adm --op show --mode sys >/dev/null 2>&1 && break
		tb_alive "$TB_ISCSI_PID" || break
		sleep 0.1
	done
	tb_alive "$TB_ISCSI_PID" && tb_iscsi_adm --op show --mode sys >/dev/null 2>&1 ||
		{ tb_log "iscsi: tgtd did not start: $(tail -3 "$TB_ISCSI_DIR/tgtd.log")"; rm -f "$TB_ISCSI_PID"; return 1; }
	# (tgtadm may talk to another tgtd on our control port: ours must live)
	if ! tb_iscsi_targets "$pass" || ! tb_alive "$TB_ISCSI_PID"; then
		tb_log "iscsi: setting up tgtd's targets failed: $(tail -3 "$TB_ISCSI_DIR/tgtd.log")"
		return 1
	fi
	tb_wait_port "$addr" "$TB_ISCSI_PORT" 10 ||
		{ tb_log "iscsi: tgtd does not listen on $addr:$TB_ISCSI_PORT"; return 1; }
	# the box's other addresses (ci/testbox.d/net.sh): a portal on each
	for a in $(tb_net_addrs); do
		tb_iscsi_adm --op new --mode portal --param "portal=$a:$TB_ISCSI_PORT" ||
			{ tb_log "iscsi: cannot add the portal $a:$TB_ISCSI_PORT"; return 1; }
	done
	tb_log "iscsi: tgtd (pid $(cat "$TB_ISCSI_PID")) on $addr:$TB_ISCSI_PORT, control port $TB_ISCSI_CTL"
}

tb_iscsi_down_locked() {
	local tid pid
	tb_alive "$TB_ISCSI_PID" || tb_iscsi_adopt 2>/dev/null || true
	if tb_alive "$TB_ISCSI_PID"; then
		pid=$(cat "$TB_ISCSI_PID")
		# tgtd ignores SIGTERM: delete its targets, then the system
		for tid in $(tb_iscsi_adm --op show --mode target 2>/dev/null |
			     sed -n 's/^Target \([0-9]*\):.*/\1/p'); do
			tb_iscsi_adm --op delete --mode target --tid "$tid" --force || true
		done
		tgtadm -C "$TB_ISCSI_CTL" --op delete --mode system || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$pid" 2>/dev/null; then
			tb_log "iscsi: tgtd $pid did not exit; killing it"
			kill -9 "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$TB_ISCSI_PID"
	if [ -d "$TB_ISCSI_DIR" ]; then
		mountpoint -q "$TB_ISCSI_DIR/tmpfs" && umount "$TB_ISCSI_DIR/tmpfs"
		rm -rf "$TB_ISCSI_DIR"
	fi
	return 0
}

tb_iscsi_status() {
	if tb_alive "$TB_ISCSI_PID"; then
		echo "iscsi: tgtd running (pid $(cat "$TB_ISCSI_PID")) on $(tb_addr):$TB_ISCSI_PORT," \
		     "$(tb_iscsi_adm --op show --mode target 2>/dev/null | grep -c '^Target') targets"
	else
		echo "iscsi: stopped"
		return 1
	fi
}

tb_iscsi_env() {
	local a p
	tb_alive "$TB_ISCSI_PID" || return 0
	a=$(tb_addr):$TB_ISCSI_PORT
	p=$(cat "$TB_ISCSI_DIR/chap.pass" 2>/dev/null)
	echo "NASBENCH_ISCSI_URL=iscsi://$a/$TB_ISCSI_IQN:wb/1"
	echo "NASBENCH_ISCSI_SYNC_URL=iscsi://$a/$TB_ISCSI_IQN:sync/1"
	echo "NASBENCH_ISCSI_TMPFS_URL=iscsi://$a/$TB_ISCSI_IQN:tmpfs/1"
	echo "NASBENCH_ISCSI_CHAP_URL=iscsi://nbchap%$p@$a/$TB_ISCSI_IQN:chap/1"
	echo "NASBENCH_ISCSI_EXT4_URL=iscsi://$a/$TB_ISCSI_IQN:ext4/1"
}

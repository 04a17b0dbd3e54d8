# SPDX-License-Identifier: GPL-2.0-or-later
# ci/testbox.d/nfs.sh - nfs-ganesha (VFS FSAL) for the testbox; sourced by ci/testbox.
#
# State under $TB_STATE/nfs: ganesha.conf, ganesha.log, rpcbind.log and the
# exported directories:
#   export/   disk-backed          -> NASBENCH_NFS_URL
#   tmpfs/    a 512 MiB tmpfs      -> NASBENCH_NFS_TMPFS_URL (sync is free)
#   denied/   exported to nobody   (tests: access denied at MOUNT)
#   secure/   only to clients on a reserved source port (PrivilegedPort, as
#             Linux's 'secure' exports and FreeBSD's mountd): a client not
#             run as root is refused -> NASBENCH_NFS_SECURE_URL
# ganesha needs rpcbind.  Outside a namespace we use the machine's rpcbind,
# starting one only when none answers (and then stop only that one).  Inside
# the namespace a private rpcbind runs there, in its own mount namespace so
# its /run/rpcbind.sock does not replace the host's; ganesha also gets a
# private /run, so it registers over TCP with the rpcbind of its namespace.

TB_NFS=$TB_STATE/nfs
TB_NFS_TMPFS_SIZE=${TB_NFS_TMPFS_SIZE:-512m}

tb_nfs_conf() {
	local addr=$1
	cat <<EOF
NFS_CORE_PARAM {
	Protocols = 3, 4;
	NFS_Port = 2049;
	MNT_Port = 20048;
	Bind_addr = $addr;
	Enable_NLM = false;
	Enable_RQUOTA = false;
}
NFSV4 { Graceless = true; }
NFS_KRB5 { Active_krb5 = false; }
EXPORT_DEFAULTS { Access_Type = RW; Squash = No_Root_Squash; SecType = sys; }
EXPORT {
	Export_Id = 1; Path = $TB_NFS/export; Pseudo = /export;
	Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;
	Transports = TCP; SecType = sys; FSAL { Name = VFS; }
}
EXPORT {
	Export_Id = 2; Path = $TB_NFS/tmpfs; Pseudo = /tmpfs;
	Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;
	Transports = TCP; SecType = sys; FSAL { Name = VFS; }
}
EXPORT {
	Export_Id = 3; Path = $TB_NFS/denied; Pseudo = /denied;
	Access_Type = None; Protocols = 3, 4;
	Transports = TCP; SecType = sys; FSAL { Name = VFS; }
	CLIENT { Clients = 192.0.2.1; Access_Type = RW; }
}
EXPORT {
	Export_Id = 4; Path = $TB_NFS/secure; Pseudo = /secure;
	Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;
	Transports = TCP; SecType = sys; PrivilegedPort = true; FSAL { Name = VFS; }
}
LOG { Default_Log_Level = WARN; }
EOF
}

# tb_nfs_alive PIDFILE: running and not a zombie (a killed server may not be
# reaped yet when a test brings it back at once).
tb_nfs_alive() {
	tb_alive "$1" || return 1
	[ "$(awk '{print $3}' "/proc/$(cat "$1")/stat" 2>/dev/null)" != Z ]
}

# Whether an rpcbind answers where ganesha will live.
tb_nfs_rpcbind_alive() {
	tb_exec rpcinfo -p "$(tb_addr)" >/dev/null 2>&1
}

# tb_nfs_private_run CMD...: exec CMD in the testbox's network namespace (if
# any) with a private tmpfs on /run.  Call it in a background subshell.
tb_nfs_private_run() {
	local net=()
	# nsenter and unshare exec (ip netns exec forks: its pid is not the server's)
	[ -f "$TB_STATE/netns" ] && net=(nsenter "--net=/run/netns/$TB_NS")
	exec "${net[@]}" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=0755 nbrun /run && mkdir -p /run/rpcbind && chown _rpc /run/rpcbind 2>/dev/null; exec "$@"' \
		sh "$@"
}

tb_nfs_up_rpcbind() {
	if [ -f "$TB_STATE/netns" ]; then
		tb_nfs_alive "$TB_STATE/nfs-rpcbind.pid" && return 0
		tb_nfs_private_run rpcbind -f -w >"$TB_NFS/rpcbind.log" 2>&1 </dev/null 12>&- &
		echo $! >"$TB_STATE/nfs-rpcbind.pid"
	else
		tb_nfs_rpcbind_alive && return 0
		rpcbind -f -w >"$TB_NFS/rpcbind.log" 2>&1 </dev/null 12>&- &
		echo $! >"$TB_STATE/nfs-rpcbind.pid"
	fi
	for _ in $(seq 50); do tb_nfs_rpcbind_alive && return 0; sleep 0.1; done
	tb_die "nfs: rpcbind did not start (see $TB_NFS/rpcbind.log)"
}

# Several worktrees' test runs bring the testbox up and down at once: up and
# down hold this lock (fd 12; the servers do not inherit it).
tb_nfs_lock() {
	exec 12>>"$TB_STATE/nfs.lock"
	flock -w 120 12 || tb_die "nfs: $TB_STATE/nfs.lock held for 2 minutes"
}

tb_nfs_up() {
	local addr
	addr=$(tb_addr)
	tb_nfs_lock
	if tb_nfs_alive "$TB_STATE/nfs-ganesha.pid"; then
		flock -u 12
		return 0
	fi
	mkdir -p "$TB_NFS/export" "$TB_NFS/tmpfs" "$TB_NFS/denied" "$TB_NFS/secure"
	if ! mountpoint -q "$TB_NFS/tmpfs"; then
		mount -t tmpfs -o "size=$TB_NFS_TMPFS_SIZE,mode=0777" nbtb-nfs "$TB_NFS/tmpfs" ||
			tb_die "nfs: cannot mount a tmpfs on $TB_NFS/tmpfs"
		touch "$TB_NFS/tmpfs.mounted"
	fi
	chmod 0777 "$TB_NFS/export" "$TB_NFS/tmpfs" "$TB_NFS/secure"
	tb_nfs_up_rpcbind
	# the box has other addresses (ci/testbox.d/net.sh): every one of its
	# namespace's
	if tb_net_extra; then tb_nfs_conf 0.0.0.0; else tb_nfs_conf "$addr"; fi >"$TB_NFS/ganesha.conf"
	: >"$TB_NFS/ganesha.log"
	if [ -f "$TB_STATE/netns" ]; then
		tb_nfs_private_run ganesha.nfsd -F -L "$TB_NFS/ganesha.log" \
			-f "$TB_NFS/ganesha.conf" -p "$TB_NFS/ganesha.run.pid" \
			>/dev/null 2>&1 </dev/null 12>&- &
	else
		ganesha.nfsd -F -L "$TB_NFS/ganesha.log" -f "$TB_NFS/ganesha.conf" \
			-p "$TB_NFS/ganesha.run.pid" >/dev/null 2>&1 </dev/null 12>&- &
	fi
	echo $! >"$TB_STATE/nfs-ganesha.pid"
	# ganesha listens before it registers: wait for the MOUNT service
	for _ in $(seq 200); do
		tb_nfs_alive "$TB_STATE/nfs-ganesha.pid" ||
			tb_die "nfs: ganesha exited (see $TB_NFS/ganesha.log)"
		if tb_exec rpcinfo -t "$addr" mountd 3 >/dev/null 2>&1 &&
		   tb_exec rpcinfo -t "$addr" nfs 3 >/dev/null 2>&1; then
			flock -u 12
			return 0
		fi
		sleep 0.1
	done
	tb_die "nfs: ganesha did not come up on $addr (see $TB_NFS/ganesha.log)"
}

tb_nfs_down() {
	tb_nfs_lock
	tb_stop_pid "$TB_STATE/nfs-ganesha.pid" 15
	rm -f "$TB_NFS/ganesha.run.pid"
	tb_stop_pid "$TB_STATE/nfs-rpcbind.pid" 5
	if [ -f "$TB_NFS/tmpfs.mounted" ]; then
		umount "$TB_NFS/tmpfs" 2>/dev/null || umount -l "$TB_NFS/tmpfs" || true
		rm -f "$TB_NFS/tmpfs.mounted"
	fi
	flock -u 12
}

tb_nfs_status() {
	if tb_nfs_alive "$TB_STATE/nfs-ganesha.pid"; then
		echo "nfs: ganesha pid $(cat "$TB_STATE/nfs-ganesha.pid") on $(tb_addr):2049"
	else
		echo "nfs: ganesha not running"
	fi
	if tb_alive "$TB_STATE/nfs-rpcbind.pid"; then
		echo "nfs: rpcbind pid $(cat "$TB_STATE/nfs-rpcbind.pid") (started by the testbox)"
	fi
}

tb_nfs_env() {
	tb_nfs_alive "$TB_STATE/nfs-ganesha.pid" || return 0
	echo "NASBENCH_NFS_URL=nfs://$(tb_addr)$TB_NFS/export"
	echo "NASBENCH_NFS_TMPFS_URL=nfs://$(tb_addr)$TB_NFS/tmpfs"
	echo "NASBENCH_NFS_SECURE_URL=nfs://$(tb_addr)$TB_NFS/secure"
}

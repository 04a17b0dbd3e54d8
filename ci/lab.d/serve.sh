# SPDX-License-Identifier: GPL-2.0-or-later
# ci/lab.d/serve.sh - the lab's NFS and iSCSI servers (sourced by ci/lab).
#
# The servers live in their own network namespace ($LAB_NS), joined to this
# machine by a veth pair in 198.18.14.0/24 (RFC 2544's benchmarking range,
# apart from the testbox's 198.18.0.0/24): a NAS with its own address, its
# own rpcbind and the standard ports, which never meets ci/testbox's
# servers on 127.0.0.1 (nor their rpcbind registrations).
#   rpcbind   private, in the namespace and a private /run
#   ganesha   VFS FSAL exporting $LAB_MNT/nfs (the pool's nfs dataset)
#   tgtd      control port $LAB_TGT_CTL; LUN 1 is the file $LAB_MNT/iscsi/lun.img
#             on the iscsi dataset (a FreeNAS "file extent")
# Pid files in $LAB/serve; logs beside them.

LAB_NS=nblab
LAB_HOST_IP=198.18.14.1
LAB_BOX_IP=198.18.14.2
LAB_TGT_CTL=14
LAB_ISCSI_PORT=3260
LAB_IQN=iqn.2026-11.org.nasbench.lab
# --links 2: a second link (docs/network.md)
LAB_HOST_IP2=198.19.14.1
LAB_BOX_IP2=198.19.14.2

lab_netns_up() {
	ip netns list 2>/dev/null | grep -qw "^$LAB_NS" && lab_netns_down
	ip netns add "$LAB_NS" &&
	ip link add nblab-host type veth peer name nblab-box &&
	ip link set nblab-box netns "$LAB_NS" &&
	ip addr add "$LAB_HOST_IP/24" dev nblab-host &&
	ip link set nblab-host up &&
	ip netns exec "$LAB_NS" ip addr add "$LAB_BOX_IP/24" dev nblab-box &&
	ip netns exec "$LAB_NS" ip link set nblab-box up &&
	ip netns exec "$LAB_NS" ip link set lo up ||
		lab_die "cannot make the network namespace $LAB_NS"
	lab_links_up
}

# tb's way (ci/testbox.d/net.sh): --mtu on both ends of every link,
# --link-rate a tbf on both, --links 2 a second link; unreachable routes
# behind the box's prefixes keep traffic for a downed link here.
lab_links_up() {
	local ends="nblab-host: nblab-box:$LAB_NS" e
	if [ "$LAB_LINKS" = 2 ]; then
		ip link add nblab-host2 type veth peer name nblab-box2 &&
		ip link set nblab-box2 netns "$LAB_NS" &&
		ip addr add "$LAB_HOST_IP2/24" dev nblab-host2 &&
		ip link set nblab-host2 up &&
		ip netns exec "$LAB_NS" ip addr add "$LAB_BOX_IP2/24" dev nblab-box2 &&
		ip netns exec "$LAB_NS" ip link set nblab-box2 up ||
			lab_die "cannot make the second link nblab-host2"
		ends="$ends nblab-host2: nblab-box2:$LAB_NS"
	fi
	for e in $ends; do
		set -- ${e#*:}
		[ -z "${1:-}" ] && set -- || set -- ip netns exec "$1"
		"$@" ip link set "${e%%:*}" mtu "$LAB_MTU" ||
			lab_die "cannot set MTU $LAB_MTU on ${e%%:*}"
		[ "$LAB_LINK_RATE" = none ] ||
			"$@" tc qdisc add dev "${e%%:*}" root handle 1: tbf rate "$LAB_LINK_RATE" \
				burst 256kb latency 50ms || lab_die "cannot shape ${e%%:*}"
	done
	ip route add unreachable "${LAB_BOX_IP%.*}.0/24" metric 4000 2>/dev/null || true
	[ "$LAB_LINKS" = 1 ] || ip route add unreachable "${LAB_BOX_IP2%.*}.0/24" metric 4000 2>/dev/null || true
}

lab_netns_down() {
	ip link del nblab-host 2>/dev/null || true
	ip link del nblab-host2 2>/dev/null || true
	ip route del unreachable "${LAB_BOX_IP%.*}.0/24" metric 4000 2>/dev/null || true
	ip route del unreachable "${LAB_BOX_IP2%.*}.0/24" metric 4000 2>/dev/null || true
	ip netns del "$LAB_NS" 2>/dev/null || true
}

# ci/lab link N down|up: the box's end of link N.
lab_link() {
	local dev
	case ${1:-} in 1) dev=nblab-box ;; 2) dev=nblab-box2 ;; *) lab_usage_die "link: N is 1 or 2, not '${1:-}'" ;; esac
	case ${2:-} in down|up) ;; *) lab_usage_die "link $1: down or up, not '${2:-}'" ;; esac
	[ "$(id -u)" -eq 0 ] || { echo "lab: needs root" >&2; exit 2; }
	ip netns exec "$LAB_NS" ip link show "$dev" >/dev/null 2>&1 ||
		{ echo "lab: link $1: no such link ($dev): 'ci/lab up NAME --links 2' first" >&2; exit 1; }
	ip netns exec "$LAB_NS" ip link set "$dev" "$2"
}

# lab_private_run CMD...: exec CMD in the namespace with a private /run (so
# rpcbind's socket and ganesha's files are not the machine's).  Call it in
# a background subshell; nsenter and unshare exec, so $! is CMD's pid.
lab_private_run() {
	exec nsenter "--net=/run/netns/$LAB_NS" unshare -m --propagation private sh -c \
		'mount -t tmpfs -o mode=0755 nblabrun /run && mkdir -p /run/rpcbind && chown _rpc /run/rpcbind 2>/dev/null; exec "$@"' \
		sh "$@"
}

# --sync disabled: the servers acknowledge what they never sync (ZFS's
# sync=disabled): libeatmydata makes fsync, fdatasync, sync_file_range and
# the O_SYNC/O_DSYNC of open no-ops in the process it is preloaded into.
LAB_EATMYDATA=/usr/lib/x86_64-linux-gnu/libeatmydata.so
lab_preload() {
	[ "$LAB_SYNC" = disabled ] || return 0
	export LD_PRELOAD=$LAB_EATMYDATA
}

lab_ganesha_conf() {
	cat <<EOF
NFS_CORE_PARAM {
	Protocols = 3; NFS_Port = 2049; MNT_Port = 20048; Bind_addr = $( [ "$LAB_LINKS" = 2 ] && echo 0.0.0.0 || echo "$LAB_BOX_IP");
	Enable_NLM = false; Enable_RQUOTA = false;
}
NFS_KRB5 { Active_krb5 = false; }
EXPORT {
	Export_Id = 1; Path = $LAB_MNT/nfs; Pseudo = /nfs;
	Access_Type = RW; Squash = No_Root_Squash; Protocols = 3;
	Transports = TCP; SecType = sys; FSAL { Name = VFS; }
}
LOG { Default_Log_Level = WARN; }
EOF
}

# rpcbind answering on the box's address (ganesha registers with it as it
# starts: a ganesha started before it answers is never found); one that
# exited is started once more (after a crash's kill -9, loaded), else the
# lab dies naming its log
lab_rpcbind_up() {
	local s=$LAB/serve try
	for try in 1 2; do
		(lab_private_run rpcbind -f -w) >"$s/rpcbind.log" 2>&1 </dev/null 9>&- &
		echo $! >"$s/rpcbind.pid"
		for _ in $(seq 300); do
			ip netns exec "$LAB_NS" rpcinfo -p "$LAB_BOX_IP" >/dev/null 2>&1 && return 0
			lab_pid_alive "$s/rpcbind.pid" rpcbind starting || break
			sleep 0.1
		done
		lab_stop_pid "$s/rpcbind.pid" rpcbind 5
	done
	lab_die "rpcbind does not answer on $LAB_BOX_IP: $(tail -3 "$s/rpcbind.log")"
}

lab_nfs_up() {
	local s=$LAB/serve
	mkdir -p "$s"
	lab_rpcbind_up
	lab_ganesha_conf >"$s/ganesha.conf"
	(lab_preload; lab_private_run nice -n "$LAB_NICE" ganesha.nfsd -F -L "$s/ganesha.log" -f "$s/ganesha.conf" \
		-p /run/ganesha.pid) >/dev/null 2>&1 </dev/null 9>&- &
	echo $! >"$s/ganesha.pid"
	for _ in $(seq 300); do
		lab_pid_alive "$s/ganesha.pid" ganesha.nfsd starting ||
			lab_die "ganesha exited: $(grep -v -e DBUS -e krb5 "$s/ganesha.log" | tail -3)"
		if ip netns exec "$LAB_NS" rpcinfo -t "$LAB_BOX_IP" mountd 3 >/dev/null 2>&1 &&
		   ip netns exec "$LAB_NS" rpcinfo -t "$LAB_BOX_IP" nfs 3 >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.1
	done
	lab_die "ganesha does not answer on $LAB_BOX_IP after 30 s (see $s/ganesha.log)"
}

lab_tgt_adm() { tgtadm -C "$LAB_TGT_CTL" --lld iscsi "$@"; }

lab_iscsi_up() {
	local s=$LAB/serve
	mkdir -p "$s"
	(lab_preload; exec ip netns exec "$LAB_NS" nice -n "$LAB_NICE" tgtd -f -C "$LAB_TGT_CTL" \
		--iscsi "portal=$LAB_BOX_IP:$LAB_ISCSI_PORT") >"$s/tgtd.log" 2>&1 </dev/null 9>&- &
	echo $! >"$s/tgtd.pid"
	for _ in $(seq 100); do
		lab_tgt_adm --op show --mode sys >/dev/null 2>&1 && break
		lab_pid_alive "$s/tgtd.pid" tgtd starting || lab_die "tgtd exited: $(tail -3 "$s/tgtd.log")"
		sleep 0.1
	done
	lab_tgt_adm --op new --mode target --tid 1 -T "$LAB_IQN:$LAB_NAME" &&
	lab_tgt_adm --op new --mode logicalunit --tid 1 --lun 1 -b "$LAB_MNT/iscsi/lun.img" &&
	lab_tgt_adm --op bind --mode target --tid 1 -I ALL >/dev/null ||
		lab_die "cannot set up tgtd's target: $(tail -3 "$s/tgtd.log")"
	[ "$LAB_LINKS" = 1 ] ||
		lab_tgt_adm --op new --mode portal --param "portal=$LAB_BOX_IP2:$LAB_ISCSI_PORT" ||
		lab_die "cannot add tgtd's portal on $LAB_BOX_IP2"
}

# tgtd ignores SIGTERM: delete the target and the system, then wait.
lab_iscsi_down() {
	local s=$LAB/serve tid
	if lab_pid_alive "$s/tgtd.pid" tgtd; then
		for tid in $(lab_tgt_adm --op show --mode target 2>/dev/null |
			     sed -n 's/^Target \([0-9]*\):.*/\1/p'); do
			lab_tgt_adm --op delete --mode target --tid "$tid" --force 2>/dev/null || true
		done
		tgtadm -C "$LAB_TGT_CTL" --op delete --mode system >/dev/null 2>&1 || true
	fi
	lab_stop_pid "$s/tgtd.pid" tgtd 5
}

lab_serve_up() {
	[ "$LAB_SYNC" != disabled ] || [ -e "$LAB_EATMYDATA" ] ||
		lab_die "--sync disabled needs $LAB_EATMYDATA (Debian's libeatmydata1; ci/install-deps)"
	lab_netns_up
	lab_nfs_up
	lab_iscsi_up
}

lab_serve_down() {
	local s=$LAB/serve p
	lab_iscsi_down
	# ganesha holds the pool's mount: 'zpool destroy' is busy until it is gone
	lab_stop_pid "$s/ganesha.pid" ganesha.nfsd 15
	lab_stop_pid "$s/rpcbind.pid" rpcbind 5
	# whatever else runs in the lab's namespace is the lab's (pid files
	# lost with a removed state directory): stop it there too
	[ "$LAB_SHARED" = 1 ] || return 0
	mkdir -p "$s"
	for p in $(ip netns pids "$LAB_NS" 2>/dev/null); do
		echo "$p" >"$s/stray.pid"
		case $(cat "/proc/$p/comm" 2>/dev/null) in
		tgtd) echo "$p" >"$s/tgtd.pid"; lab_iscsi_down ;;
		*) lab_stop_pid "$s/stray.pid" "$(cat "/proc/$p/comm" 2>/dev/null)" 15 ;;
		esac
	done
	rm -f "$s/stray.pid"
	lab_netns_down
}

lab_serve_status() {
	local s=$LAB/serve rc=0
	if lab_pid_alive "$s/ganesha.pid" ganesha.nfsd; then
		echo "nfs: ganesha pid $(cat "$s/ganesha.pid") on $LAB_BOX_IP:2049, export $LAB_MNT/nfs"
	else
		echo "nfs: ganesha not running"; rc=1
	fi
	if lab_pid_alive "$s/tgtd.pid" tgtd; then
		echo "iscsi: tgtd pid $(cat "$s/tgtd.pid") on $LAB_BOX_IP:$LAB_ISCSI_PORT, LUN 1 $LAB_MNT/iscsi/lun.img"
	else
		echo "iscsi: tgtd not running"; rc=1
	fi
	return $rc
}

lab_serve_alive() {
	lab_pid_alive "$LAB/serve/ganesha.pid" ganesha.nfsd &&
	lab_pid_alive "$LAB/serve/tgtd.pid" tgtd
}

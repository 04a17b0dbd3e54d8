# SPDX-License-Identifier: GPL-2.0-or-later
# ci/testbox.d/net.sh - more ways to the box than one link (sourced by
# ci/testbox; docs/network.md).  With a namespace (--netns, --private):
#   --links 2     a second veth link to the box, its own address
#                 (198.19.X.2/27, X = 0 for --netns, 100+N for slot N),
#                 shaped as the first (--rate); tgtd gets a portal on it,
#                 ganesha answers on it (it binds every address of the
#                 box's namespace)
#   --mtu M       both ends of every link at MTU M (veths take 9000)
#   --router M    another way to the box, routed: this machine - router 1 -
#                 (a link at MTU M) - router 2 - the box, each router a
#                 namespace that forwards, so the path MTU is learned by
#                 ICMP "fragmentation needed" (198.19.X.98)
#   --switch M    another way to the box through a switch (a bridge in a
#                 namespace) whose port towards the box is at MTU M: frames
#                 larger are dropped without a word, a black hole
#                 (198.19.X.130)
#   ci/testbox mtu M   every direct link's MTU, both ends (new connections
#                 take it; ci/bench-mtu alternates 9000 and 1500)
#   ci/testbox link N down|up   take link N (1, 2) down or back up, as a
#                 cable pulled at the box: its end in the box's namespace
#                 goes down (the host end keeps its address and route, so
#                 nothing sent to the box can leave by another way)
# Every way made here has an 'unreachable' route of its prefix behind it
# (metric 4000): with a link down, traffic for the box's addresses is
# refused on this machine, never sent to its default route.
# What 'up' made is in $TB_STATE/net ("links=2 mtu=9000 router=1500
# switch=..."); 'down' removes it.  The env adds NASBENCH_TB_ADDR2,
# NASBENCH_TB_ROUTED_ADDR, NASBENCH_TB_SWITCHED_ADDR, NASBENCH_TB_LINK1/2
# (the host ends) and NASBENCH_TB_NS (the box's namespace).

tb_net_field() { [ -f "$TB_STATE/net" ] && sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$TB_STATE/net" || true; }

# The names and addresses of the extra ways, for slot $TB_SLOT.
tb_net_names() {
	local x=$TB_SLOT
	[ "$x" = 0 ] || x=$((100 + TB_SLOT))
	TB_NET_PFX=198.19.$x
	TB_VH2=${TB_VH}l2 TB_VB2=${TB_VB}l2
	TB_BOX_IP2=$TB_NET_PFX.2 TB_HOST_IP2=$TB_NET_PFX.1
	TB_R1=${TB_NS}r1 TB_R2=${TB_NS}r2 TB_SW=${TB_NS}sw
	TB_BOX_IP_ROUTED=$TB_NET_PFX.98 TB_BOX_IP_SWITCHED=$TB_NET_PFX.130
	# veth names: at most 15 characters
	TB_VHR=nbhr$TB_SLOT TB_VHS=nbhs$TB_SLOT
}
tb_net_names

# Any address of the box beyond the first: servers must bind them all.
tb_net_extra() { [ -n "$(tb_net_field links)$(tb_net_field router)$(tb_net_field switch)" ]; }

# tb_net_shape DEV [NS]: tbf at the first link's rate, if any.
tb_net_shape() {
	local rate
	rate=$(sed -n 's/.*rate=\([^ ]*\).*/\1/p' "$TB_STATE/netns" 2>/dev/null)
	[ -n "$rate" ] && [ "$rate" != none ] || return 0
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" tc qdisc add dev "$1" root handle 1: tbf rate "$rate" burst 256kb latency 50ms
	else
		tc qdisc add dev "$1" root handle 1: tbf rate "$rate" burst 256kb latency 50ms
	fi
}

# tb_net_veth HOSTDEV NS NSDEV HOSTIP/PFX NSIP/PFX MTU [PEER-MTU]
tb_net_veth() {
	ip link add "$1" mtu "$6" type veth peer name "$3" mtu "${7:-$6}" &&
	ip link set "$3" netns "$2" &&
	ip addr add "$4" dev "$1" && ip link set "$1" up &&
	ip netns exec "$2" ip addr add "$5" dev "$3" &&
	ip netns exec "$2" ip link set "$3" up
}

# tb_net_pair NS1 DEV1 IP1/PFX NS2 DEV2 IP2/PFX MTU: a veth between two
# namespaces.
tb_net_pair() {
	ip link add "$2" mtu "$7" type veth peer name "$5" mtu "$7" &&
	ip link set "$2" netns "$1" && ip link set "$5" netns "$4" &&
	ip netns exec "$1" ip addr add "$3" dev "$2" && ip netns exec "$1" ip link set "$2" up &&
	ip netns exec "$4" ip addr add "$6" dev "$5" && ip netns exec "$4" ip link set "$5" up
}

tb_net_router() {
	local m=$1 mtu=$2 p=$TB_NET_PFX
	ip netns add "$TB_R1" && ip netns add "$TB_R2" || return 1
	for r in "$TB_R1" "$TB_R2"; do
		ip netns exec "$r" ip link set lo up
		ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
	done
	tb_net_veth "$TB_VHR" "$TB_R1" nbr1a$TB_SLOT "$p.33/27" "$p.34/27" "$mtu" &&
	tb_net_pair "$TB_R1" nbr1b$TB_SLOT "$p.65/27" "$TB_R2" nbr2a$TB_SLOT "$p.66/27" "$m" &&
	tb_net_pair "$TB_R2" nbr2b$TB_SLOT "$p.97/27" "$TB_NS" nbbr$TB_SLOT "$p.98/27" "$mtu" &&
	ip route add "$p.96/27" via "$p.34" &&
	ip netns exec "$TB_R1" ip route add "$p.96/27" via "$p.66" &&
	ip netns exec "$TB_R2" ip route add "$p.32/27" via "$p.65" &&
	ip netns exec "$TB_NS" ip route add "$p.32/27" via "$p.97"
}

tb_net_switch() {
	local m=$1 mtu=$2 p=$TB_NET_PFX
	ip netns add "$TB_SW" || return 1
	ip netns exec "$TB_SW" ip link set lo up
	ip netns exec "$TB_SW" ip link add nbsw type bridge &&
	ip netns exec "$TB_SW" ip link set nbsw up &&
	ip link add "$TB_VHS" mtu "$mtu" type veth peer name nbswa$TB_SLOT mtu "$mtu" &&
	ip link set nbswa$TB_SLOT netns "$TB_SW" &&
	ip addr add "$p.129/27" dev "$TB_VHS" && ip link set "$TB_VHS" up &&
	# the switch's port towards the box is at M, the box's own end at MTU
	ip link add nbswb$TB_SLOT mtu "$m" type veth peer name nbbs$TB_SLOT mtu "$mtu" &&
	ip link set nbswb$TB_SLOT netns "$TB_SW" && ip link set nbbs$TB_SLOT netns "$TB_NS" &&
	ip netns exec "$TB_NS" ip addr add "$p.130/27" dev nbbs$TB_SLOT &&
	ip netns exec "$TB_NS" ip link set nbbs$TB_SLOT up &&
	for d in nbswa$TB_SLOT nbswb$TB_SLOT; do
		ip netns exec "$TB_SW" ip link set "$d" master nbsw &&
		ip netns exec "$TB_SW" ip link set "$d" up || return 1
	done
}

# Called by 'up' once the namespace exists, before the servers start:
# tb_net_links_up LINKS MTU ROUTER SWITCH.
tb_net_links_up() {
	local links=${1:-1} mtu=${2:-} router=${3:-} switch=${4:-}
	[ -f "$TB_STATE/net" ] && return 0
	[ -n "$mtu$router$switch" ] || [ "$links" != 1 ] || return 0
	[ -f "$TB_STATE/netns" ] || tb_die "--links, --mtu, --router and --switch need --netns or --private"
	tb_net_names
	if [ -n "$mtu" ]; then
		ip link set "$TB_VH" mtu "$mtu" && ip netns exec "$TB_NS" ip link set "$TB_VB" mtu "$mtu" ||
			tb_die "cannot set MTU $mtu on $TB_VH"
	fi
	if [ "$links" = 2 ]; then
		tb_net_veth "$TB_VH2" "$TB_NS" "$TB_VB2" "$TB_HOST_IP2/27" "$TB_BOX_IP2/27" "${mtu:-1500}" &&
		tb_net_shape "$TB_VH2" && tb_net_shape "$TB_VB2" "$TB_NS" ||
			tb_die "cannot make the second link $TB_VH2"
	fi
	[ -z "$router" ] || tb_net_router "$router" "${mtu:-1500}" ||
		tb_die "cannot make the routed way to the box (--router $router)"
	[ -z "$switch" ] || tb_net_switch "$switch" "${mtu:-1500}" ||
		tb_die "cannot make the switched way to the box (--switch $switch)"
	tb_net_fence add
	echo "links=$links mtu=${mtu:-1500} router=$router switch=$switch" >"$TB_STATE/net"
}

# tb_net_fence add|del: the unreachable routes behind the box's prefixes.
tb_net_fence() {
	local p
	for p in "${TB_BOX_IP%.*}.0/24" "$TB_NET_PFX.0/24"; do
		ip route "$1" unreachable "$p" metric 4000 2>/dev/null || [ "$1" = del ] ||
			tb_die "cannot add the route 'unreachable $p'"
	done
	return 0
}

tb_net_up() { :; }

tb_net_down() {
	[ -f "$TB_STATE/net" ] || return 0
	tb_net_fence del
	ip link del "$TB_VH2" 2>/dev/null || true
	ip link del "$TB_VHR" 2>/dev/null || true
	ip link del "$TB_VHS" 2>/dev/null || true
	for n in "$TB_R1" "$TB_R2" "$TB_SW"; do ip netns del "$n" 2>/dev/null || true; done
	rm -f "$TB_STATE/net"
}

tb_net_status() {
	[ -f "$TB_STATE/net" ] || return 0
	echo "net: $(cat "$TB_STATE/net")"
}

tb_net_env() {
	[ -f "$TB_STATE/netns" ] || return 0
	echo "NASBENCH_TB_NS=$TB_NS"
	echo "NASBENCH_TB_LINK1=$TB_VH"
	[ "$(tb_net_field links)" = 2 ] && echo "NASBENCH_TB_ADDR2=$TB_BOX_IP2" &&
		echo "NASBENCH_TB_LINK2=$TB_VH2"
	[ -n "$(tb_net_field router)" ] && echo "NASBENCH_TB_ROUTED_ADDR=$TB_BOX_IP_ROUTED"
	[ -n "$(tb_net_field switch)" ] && echo "NASBENCH_TB_SWITCHED_ADDR=$TB_BOX_IP_SWITCHED"
	return 0
}

# The box's addresses beyond the first, one a line (servers listen there).
tb_net_addrs() {
	[ "$(tb_net_field links)" = 2 ] && echo "$TB_BOX_IP2"
	[ -n "$(tb_net_field router)" ] && echo "$TB_BOX_IP_ROUTED"
	[ -n "$(tb_net_field switch)" ] && echo "$TB_BOX_IP_SWITCHED"
	return 0
}

# ci/testbox link N down|up
tb_net_link() {
	local dev
	case ${1:-} in 1) dev=$TB_VB ;; 2) dev=$TB_VB2 ;; *) tb_die "link: N is 1 or 2, not '${1:-}'" ;; esac
	case ${2:-} in down|up) ;; *) tb_die "link $1: down or up, not '${2:-}'" ;; esac
	[ -f "$TB_STATE/net" ] || tb_die "link $1: 'up' with --links (or --mtu) made no fenced links here"
	ip netns exec "$TB_NS" ip link show "$dev" >/dev/null 2>&1 ||
		tb_die "link $1: no such link ($dev): 'up --links 2' first"
	ip netns exec "$TB_NS" ip link set "$dev" "$2"
}

# ci/testbox mtu M
tb_net_mtu() {
	local m=${1:-}
	[[ $m =~ ^[0-9]+$ ]] || tb_die "mtu: a number, not '$m'"
	[ -f "$TB_STATE/net" ] || tb_die "mtu: 'up' with --links or --mtu made no links here"
	ip link set "$TB_VH" mtu "$m" && ip netns exec "$TB_NS" ip link set "$TB_VB" mtu "$m" ||
		tb_die "mtu: cannot set $m on $TB_VH"
	if [ "$(tb_net_field links)" = 2 ]; then
		ip link set "$TB_VH2" mtu "$m" && ip netns exec "$TB_NS" ip link set "$TB_VB2" mtu "$m" ||
			tb_die "mtu: cannot set $m on $TB_VH2"
	fi
	sed -i "s/\bmtu=[0-9]*/mtu=$m/" "$TB_STATE/net"
}

# SPDX-License-Identifier: GPL-2.0-or-later
# ci/lab.d/ssh.sh - an SSH server in the lab's namespace (sourced by ci/lab),
# so that nasbench's telemetry reaches the box as it reaches a real NAS
# (monitor = ssh://root@198.18.14.2:2222).  OpenSSH's sshd on $LAB_BOX_IP,
# port $LAB_SSH_PORT, keys only; everything it needs is made for the lab
# under $LAB/ssh and removed by 'down':
#   host_ed25519        the box's throwaway host key
#   id_ed25519          the client's key (nasbench: monitor-identity)
#   known_hosts         the box's name and host key (monitor-known-hosts)
#   known_hosts_wrong   the same name with another key: a host key mismatch
#   id_unknown_os       a key whose forced command answers every command
#                       with "SunOS": a box with neither Linux nor FreeBSD tools
#   boot_id             the box's boot id (below)
# Inside the namespace /proc is this machine's (the box is this machine),
# whose boot id never changes.  The box's own is a new random one at every
# boot of the box ('up', 'crash': a power cycle), bind-mounted over
# /proc/sys/kernel/random/boot_id in sshd's mount namespace, so a session
# reads it where Linux keeps it (crashcheck's evidence that the box went
# down, docs/crashcheck.md).

LAB_SSH_PORT=2222

# The box boots: a new boot id.  Written in place: the bind mount sees it.
lab_boot() { cat /proc/sys/kernel/random/uuid >"$LAB/boot_id"; }

lab_ssh_keys() {
	local d=$1 k
	for k in host_ed25519 id_ed25519 id_unknown_os other_host; do
		ssh-keygen -q -t ed25519 -N '' -C "nblab-$k" -f "$d/$k" ||
			lab_die "ssh-keygen failed"
	done
	{
		cat "$d/id_ed25519.pub"
		echo "command=\"echo SunOS\",no-pty,no-port-forwarding $(cat "$d/id_unknown_os.pub")"
	} >"$d/authorized_keys"
	chmod 600 "$d/authorized_keys"
	echo "[$LAB_BOX_IP]:$LAB_SSH_PORT $(cut -d' ' -f1,2 "$d/host_ed25519.pub")" >"$d/known_hosts"
	echo "[$LAB_BOX_IP]:$LAB_SSH_PORT $(cut -d' ' -f1,2 "$d/other_host.pub")" >"$d/known_hosts_wrong"
	rm -f "$d/other_host" "$d/other_host.pub"
}

lab_ssh_up() {
	local d=$LAB/ssh s=$LAB/serve
	command -v /usr/sbin/sshd >/dev/null || lab_die "no sshd: ci/install-deps (openssh-server)"
	rm -rf "$d"
	mkdir -p "$d" "$s" /run/sshd
	chmod 700 "$d"
	lab_ssh_keys "$d"
	cat >"$d/sshd_config" <<EOF
Port $LAB_SSH_PORT
ListenAddress $LAB_BOX_IP
HostKey $d/host_ed25519
AuthorizedKeysFile $d/authorized_keys
PidFile none
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxSessions 64
MaxStartups 64
EOF
	[ -s "$LAB/boot_id" ] || lab_boot
	# ip netns exec (a mount namespace of its own) and sh exec: $! is
	# sshd's pid
	# (no descriptor of the caller's: a caller reading 'up's output
	# through a pipe would wait for sshd to exit)
	(exec ip netns exec "$LAB_NS" sh -c 'mount --bind "$1" /proc/sys/kernel/random/boot_id &&
		exec /usr/sbin/sshd -D -f "$2" -E "$3"' sh "$LAB/boot_id" "$d/sshd_config" \
		"$s/sshd.log") </dev/null >/dev/null 2>>"$s/sshd.log" 9>&- &
	echo $! >"$s/sshd.pid"
	for _ in $(seq 100); do
		timeout 1 bash -c "exec 3<>/dev/tcp/$LAB_BOX_IP/$LAB_SSH_PORT" 2>/dev/null && return 0
		lab_pid_alive "$s/sshd.pid" sshd starting || break
		sleep 0.1
	done
	lab_die "sshd did not start on $LAB_BOX_IP:$LAB_SSH_PORT: $(tail -3 "$s/sshd.log" 2>/dev/null)"
}

lab_ssh_down() {
	lab_stop_pid "$LAB/serve/sshd.pid" sshd 5
	rm -rf "$LAB/ssh"
}

lab_ssh_status() {
	if lab_pid_alive "$LAB/serve/sshd.pid" sshd; then
		echo "ssh: sshd pid $(cat "$LAB/serve/sshd.pid") on $LAB_BOX_IP:$LAB_SSH_PORT, keys in $LAB/ssh"
	else
		echo "ssh: sshd not running"; return 1
	fi
}

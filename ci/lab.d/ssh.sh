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
# Inside the namespace /proc is this machine's (the box is this machine).

LAB_SSH_PORT=2222

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
	# ip netns exec execs: $! is sshd's pid; it holds none of up's
	# descriptors (under 'env=$(ci/lab up ...)' its standard output kept
	# the caller waiting for ever)
	(exec ip netns exec "$LAB_NS" /usr/sbin/sshd -D -f "$d/sshd_config" -E "$s/sshd.log" \
		</dev/null >/dev/null 2>&1) &
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

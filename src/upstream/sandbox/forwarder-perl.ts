// The network forwarder of forwarder.ts, in Perl: the same argv, the same behaviour, a few ms of
// CPU to start where Node takes about 25 (docs/sandbox.md, "What a sandbox costs"). It is in
// series before the server, so on a loaded machine that start is most of a grant's cost.
// No module at all (loading Socket and Errno tripled its start): Linux's constants are written
// out, and the probe (PERL_FORWARDER_CHECK) runs this perl once to compare them with Socket's and
// Errno's; where they differ (an unusual architecture), Node runs the forwarder.
// One process, no fork per connection (a fork would count against the server's maxProcesses): a
// select loop with a bounded buffer per direction, half-closes passed on, a connection closed when
// both sides are done. A CONNECT tunnel's client is not read until the proxy's 200, then the bytes
// after it go first. The child's exit interrupts select (SIGCHLD); perl's deferred signals leave a
// microsecond window before select where it would not, so select also wakes each second.
// WNOHANG is 1 on every Linux; this runs only under bubblewrap.

/** `perl -e` source. argv after `--`: [socket, proxyPort, portsJson, command, ...args]. */
export const PERL_FORWARDER_SOURCE = String.raw`
use strict;
sub AF_UNIX() {1} sub AF_INET() {2} sub SOCK_STREAM() {1} sub SOCK_NONBLOCK() {2048} sub SOL_SOCKET() {1}
sub SO_REUSEADDR() {2} sub MSG_DONTWAIT() {64} sub MSG_NOSIGNAL() {16384} sub EAGAIN() {11} sub EINTR() {4}
sub sockaddr_lo { pack('S n C4 x8', AF_INET, $_[0], 127, 0, 0, 1) }
sub sockaddr_unix { pack('S Z108', AF_UNIX, $_[0]) }
my ($sock, $pport, $ports, $cmd, @args) = @ARGV;
my (%lis, %ep);
for my $p ($pport, $ports =~ /(\d+)/g) {
  my $l;
  unless (socket($l, AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0) && setsockopt($l, SOL_SOCKET, SO_REUSEADDR, 1)
      && bind($l, sockaddr_lo($p)) && listen($l, 4096)) {
    print STDERR "carte sandbox: cannot listen on 127.0.0.1:$p: $!\n"; exit 1;
  }
  $lis{fileno $l} = [$l, $p == $pport ? 0 : $p];
}
pipe(my $er, my $ew) or die "carte sandbox: pipe: $!\n";
my $pid = fork;
if (!defined $pid) { print STDERR "carte sandbox: cannot start $cmd: $!\n"; exit 127 }
if (!$pid) {
  close $er;
  my $url = "http://127.0.0.1:$pport";
  @ENV{qw(HTTP_PROXY HTTPS_PROXY http_proxy https_proxy NODE_USE_ENV_PROXY)} = ($url, $url, $url, $url, 1);
  { no warnings; exec { $cmd } $cmd, @args; }
  print $ew "$!"; close $ew; exit 127;
}
close $ew;
if (sysread($er, my $why, 512)) { print STDERR "carte sandbox: cannot start $cmd: $why\n"; waitpid($pid, 0); exit 127 }
close $er;
for my $s (qw(TERM INT HUP)) { $SIG{$s} = sub { kill $s, $pid } }
$SIG{CHLD} = sub {};
my $MAX = 262144;
sub drop { for my $x ($_[0], $_[0]{peer}) { next if $x->{dead}++; delete $ep{$x->{fd}}; close $x->{fh} } }
sub done { my $e = shift; drop($e) if $e->{eof} && $e->{peer}{eof} && !length($e->{out}) && !length($e->{peer}{out}) }
sub endpoint { my $fh = shift; my $e = { fh => $fh, fd => fileno $fh, out => '' }; $ep{$e->{fd}} = $e }
while (1) {
  if (waitpid($pid, 1) == $pid) { exit(($? & 127) ? 128 + ($? & 127) : $? >> 8) }
  my ($r, $w) = ('', '');
  vec($r, $_, 1) = 1 for keys %lis;
  my @all = values %ep;
  for my $e (@all) {
    vec($r, $e->{fd}, 1) = 1 if !$e->{eof} && !$e->{hold} && length($e->{peer}{out}) < $MAX;
    vec($w, $e->{fd}, 1) = 1 if length $e->{out};
  }
  next if select($r, $w, undef, 1) <= 0;
  for my $fd (keys %lis) {
    next unless vec($r, $fd, 1);
    my ($l, $port) = @{$lis{$fd}};
    accept(my $c, $l) or next;
    my $u;
    unless (socket($u, AF_UNIX, SOCK_STREAM, 0) && connect($u, sockaddr_unix($sock))) { close $c; next }
    my ($ce, $ue) = (endpoint($c), endpoint($u));
    ($ce->{peer}, $ue->{peer}) = ($ue, $ce);
    next unless $port;
    $ue->{out} = "CONNECT 127.0.0.1:$port HTTP/1.1\r\nHost: 127.0.0.1:$port\r\n\r\n";
    $ue->{head} = ''; $ce->{hold} = 1;
  }
  for my $e (@all) {
    next if $e->{dead};
    my $p = $e->{peer};
    if (vec($w, $e->{fd}, 1)) {
      my $n = send($e->{fh}, $e->{out}, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (!defined $n) { drop($e) unless $! == EAGAIN || $! == EINTR; next }
      substr($e->{out}, 0, $n) = '';
      shutdown($e->{fh}, 1) if $p->{eof} && !length $e->{out};
      done($e);
    }
    next if $e->{dead} || !vec($r, $e->{fd}, 1);
    my $got = recv($e->{fh}, my $buf, 65536, MSG_DONTWAIT);
    if (!defined $got) { drop($e) unless $! == EAGAIN || $! == EINTR; next }
    if (!length $buf) {
      if (defined $e->{head}) { drop($e); next }
      $e->{eof} = 1;
      shutdown($p->{fh}, 1) unless length $p->{out};
      done($e);
    } elsif (defined $e->{head}) {
      $e->{head} .= $buf;
      my $end = index($e->{head}, "\r\n\r\n");
      if ($end < 0) { drop($e) if length $e->{head} > 65536; next }
      if ($e->{head} !~ m{^HTTP/1\.[01] 200}) { drop($e); next }
      $p->{out} .= substr($e->{head}, $end + 4);
      delete $e->{head}; delete $p->{hold};
    } else { $p->{out} .= $buf }
  }
}
`;

/**
 * Put before the source by the probe: this perl compiles the forwarder, and the constants it
 * writes out are Socket's and Errno's here; then it prints its own path and stops (called with
 * `&`: the forwarder's subs are declared after this).
 */
export const PERL_FORWARDER_CHECK = String.raw`
require Socket; require Errno;
my $same = !grep { !$_ } Socket::AF_UNIX() == &AF_UNIX(), Socket::AF_INET() == &AF_INET(),
  Socket::SOCK_STREAM() == &SOCK_STREAM(), Socket::SOCK_NONBLOCK() == &SOCK_NONBLOCK(),
  Socket::SOL_SOCKET() == &SOL_SOCKET(), Socket::SO_REUSEADDR() == &SO_REUSEADDR(),
  Socket::MSG_DONTWAIT() == &MSG_DONTWAIT(), Socket::MSG_NOSIGNAL() == &MSG_NOSIGNAL(),
  Errno::EAGAIN() == &EAGAIN(), Errno::EINTR() == &EINTR(),
  Socket::pack_sockaddr_in(3128, Socket::INADDR_LOOPBACK()) eq &sockaddr_lo(3128),
  Socket::pack_sockaddr_un('/tmp/.carte/net.sock') eq &sockaddr_unix('/tmp/.carte/net.sock');
print $^X if $same; exit 0;
`;

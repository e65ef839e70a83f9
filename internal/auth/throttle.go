package auth

import (
	"net/netip"
	"strings"
)

// ThrottleKey is the client address that login throttling counts (contract
// 5): an IPv4 address as it is, an IPv6 address as its /64 network. One
// subscriber, one server or one cloud instance usually gets a whole /64,
// so counting each IPv6 address would give an attacker 2^64 fresh
// addresses; an IPv4-mapped IPv6 address is the IPv4 address. What does
// not parse as an address is kept as it is.
func ThrottleKey(addr string) string {
	ip, err := netip.ParseAddr(strings.Trim(addr, "[]"))
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	prefix, _ := ip.WithZone("").Prefix(64) // a valid IPv6 address always has a /64
	return prefix.String()
}

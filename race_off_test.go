//go:build !race

package main

// raceBuild: the tests run under the race detector (go test -race).
const raceBuild = false

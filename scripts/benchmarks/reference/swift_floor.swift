// Not a reference host of the issue: the start-up floor of a static Swift
// executable without Foundation. Same loop as c_host.c (read one frame, write
// one fixed getSettings reply, until EOF), so "ours / this" is the cost of our
// own start-up work and "this / C" the cost of the Swift runtime itself.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

let fixed = Array("{\"status\":\"success\",\"settings\":{\"enabled\":true,\"theme\":\"auto\"}}".utf8)
var out = withUnsafeBytes(of: UInt32(fixed.count)) { Array($0) } + fixed
var length: UInt32 = 0
while read(0, &length, 4) == 4 {
    var body = [UInt8](repeating: 0, count: Int(length))
    var got = 0
    while got < Int(length) {
        let n = body.withUnsafeMutableBytes { read(0, $0.baseAddress! + got, Int(length) - got) }
        if n <= 0 { exit(1) }
        got += n
    }
    if write(1, &out, out.count) != out.count { exit(0) }
}
exit(0)

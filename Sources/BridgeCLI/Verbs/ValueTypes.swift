/// The `-TYPE` words `write` takes.
enum ValueTypes {
    static let flags = ["-bool", "-int", "-float", "-string", "-date", "-data", "-array", "-dict", "-json"]
}

/// The steps of a loopback call and whether each really happened: the exit status and the
/// summary's `result` come from here.
struct StepLog: Sendable {
    struct Step: Sendable {
        var name: String
        var passed: Bool
        var detail: String
    }

    private(set) var steps: [Step] = []

    mutating func pass(_ name: String, _ detail: String) {
        steps.append(Step(name: name, passed: true, detail: detail))
    }

    mutating func fail(_ name: String, _ detail: String) {
        steps.append(Step(name: name, passed: false, detail: detail))
    }

    mutating func check(_ name: String, _ condition: Bool, passed: String, failed: String) {
        condition ? pass(name, passed) : fail(name, failed)
    }

    /// "ok", or the first failed step and why.
    var result: String {
        guard let failure = steps.first(where: { !$0.passed }) else { return steps.isEmpty ? "no steps ran" : "ok" }
        return "failed at \(failure.name): \(failure.detail)"
    }

    var allPassed: Bool { !steps.isEmpty && steps.allSatisfy(\.passed) }
}

import CFFTW
import Foundation

/// FFTW real-to-complex plans, one per transform length, created once and shared.
/// FFTW's planner is not thread-safe, so planning is serialised behind a lock; plans
/// are executed concurrently with the new-array interface (`fftw_execute_dft_r2c`),
/// which is thread-safe. Every buffer, at planning and at execution, comes from
/// `fftw_alloc_*`, so alignment always matches and the SIMD codelets are usable.
/// Plans live for the whole process.
final class FFTPlans: @unchecked Sendable {
    static let shared = FFTPlans()

    private let lock = NSLock()
    private var plans: [Int: OpaquePointer] = [:]

    func r2c(length n: Int) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        if let plan = plans[n] { return plan }
        let input = fftw_alloc_real(n)
        let output = fftw_alloc_complex(n / 2 + 1)
        defer { fftw_free(input); fftw_free(output) }
        guard let plan = fftw_plan_dft_r2c_1d(Int32(n), input, output, UInt32(FFTW_ESTIMATE)) else {
            preconditionFailure("FFTW could not plan a real transform of length \(n)")
        }
        plans[n] = plan
        return plan
    }
}

/// Squared magnitudes of the real FFT of a buffer, with FFTW-aligned scratch space
/// reused across calls, so repeated transforms of one length allocate nothing. The
/// zero padding past the values written stays in place between calls (FFTW's
/// out-of-place real transforms leave their input unchanged), so only what an earlier,
/// longer call wrote there is cleared.
public final class PowerFFT {
    public let length: Int
    private let plan: OpaquePointer
    private let input: UnsafeMutableBufferPointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>
    /// Input values from this index on are zero.
    private var zeroFrom = 0

    public init(length: Int) {
        self.length = length
        plan = FFTPlans.shared.r2c(length: length)
        input = UnsafeMutableBufferPointer(start: fftw_alloc_real(length), count: length)
        input.initialize(repeating: 0)
        output = fftw_alloc_complex(length / 2 + 1)
    }

    deinit {
        fftw_free(input.baseAddress)
        fftw_free(output)
    }

    /// |X_k|² for k = 0 ..< accumulator.count (at most length/2 + 1) of the input whose
    /// first `count` values `fill` writes, zero after them, added into `accumulator`.
    public func accumulate(into accumulator: inout [Double], count: Int,
                           fill: (UnsafeMutableBufferPointer<Double>) -> Void) {
        precondition(count <= length, "PowerFFT: \(count) values for a transform of \(length)")
        fill(UnsafeMutableBufferPointer(rebasing: input[0..<count]))
        if zeroFrom > count { UnsafeMutableBufferPointer(rebasing: input[count..<zeroFrom]).update(repeating: 0) }
        zeroFrom = count
        fftw_execute_dft_r2c(plan, input.baseAddress, output)
        accumulator.withUnsafeMutableBufferPointer { acc in
            for k in 0..<min(acc.count, length / 2 + 1) {
                acc[k] += output[k].0 * output[k].0 + output[k].1 * output[k].1
            }
        }
    }
}

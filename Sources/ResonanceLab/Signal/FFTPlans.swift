import CFFTW
import Foundation

/// FFTW real-to-complex plans, one per transform length, created once and shared.
/// FFTW's planner is not thread-safe, so planning is serialised behind a lock; plans
/// are executed concurrently with the new-array interface (`fftw_execute_dft_r2c`),
/// which is thread-safe. Plans use `FFTW_ESTIMATE | FFTW_UNALIGNED`, so any buffer
/// alignment is valid. They live for the whole process.
final class FFTPlans: @unchecked Sendable {
    static let shared = FFTPlans()

    private let lock = NSLock()
    private var plans: [Int: OpaquePointer] = [:]

    func r2c(length n: Int) -> OpaquePointer {
        lock.lock()
        defer { lock.unlock() }
        if let plan = plans[n] { return plan }
        let input = UnsafeMutablePointer<Double>.allocate(capacity: n)
        let output = UnsafeMutablePointer<fftw_complex>.allocate(capacity: n / 2 + 1)
        defer { input.deallocate(); output.deallocate() }
        let flags = UInt32(FFTW_ESTIMATE) | UInt32(FFTW_UNALIGNED)
        guard let plan = fftw_plan_dft_r2c_1d(Int32(n), input, output, flags) else {
            preconditionFailure("FFTW could not plan a real transform of length \(n)")
        }
        plans[n] = plan
        return plan
    }
}

/// Squared magnitudes of the real FFT of a buffer, with reusable scratch space so that
/// repeated transforms of one length allocate nothing (a reference type, so the scratch
/// is never copied on write).
public final class PowerFFT {
    public let length: Int
    private let plan: OpaquePointer
    private var input: [Double]
    private var output: [fftw_complex]

    public init(length: Int) {
        self.length = length
        plan = FFTPlans.shared.r2c(length: length)
        input = [Double](repeating: 0, count: length)
        output = [fftw_complex](repeating: (0, 0), count: length / 2 + 1)
    }

    /// |X_k|² for k = 0 … length/2 of `fill`'s input (zero-padded by the caller's choice),
    /// added into `accumulator`.
    public func accumulate(into accumulator: inout [Double], fill: (inout [Double]) -> Void) {
        fill(&input)
        let plan = self.plan
        input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                fftw_execute_dft_r2c(plan, inp.baseAddress, out.baseAddress)
            }
        }
        for k in 0..<min(accumulator.count, output.count) {
            accumulator[k] += output[k].0 * output[k].0 + output[k].1 * output[k].1
        }
    }
}

import ArgumentParser
import ResonanceLab

// The library's option enums as command-line values (their raw values, listed in --help).
extension ArtifactMethod: ExpressibleByArgument {}
extension PSDMethod: ExpressibleByArgument {}
extension Detrending: ExpressibleByArgument {}
extension Interpolation: ExpressibleByArgument {}

// swift-tools-version:5.10
import PackageDescription

// The test code is compiled without the optimiser even in the release build that the
// tests share with the tool (`make build-tests`): the library they test stays optimised,
// and the tests' own code, which runs for seconds, compiles in a fraction of the time.
// Only the test targets carry it, and a package that depends on this one never builds
// them (docs/development.md, Building).
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "ResonanceLab",
    products: [
        .executable(name: "resonance", targets: ["resonance"]),
        .executable(name: "resonance-fuzz", targets: ["resonance-fuzz"]),
        .library(name: "ResonanceLab", targets: ["ResonanceLab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Builds the zip archives of the Apple Health export.zip tests.
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        // Debian: libcsv-dev (installed by `make deps`).
        .systemLibrary(name: "CCSV", path: "Sources/CCSV", providers: [.apt(["libcsv-dev"])]),
        // Debian: libfftw3-dev (installed by `make deps`).
        .systemLibrary(name: "CFFTW", path: "Sources/CFFTW", providers: [.apt(["libfftw3-dev"])]),
        // Debian: libxml2-dev (installed by `make deps`); Apple Health export.xml is
        // read with its SAX2 push parser.
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        // Debian: zlib1g-dev (installed by `make deps`); the export.xml entry of an Apple
        // Health export.zip is inflated with it.
        .systemLibrary(name: "CLibZ", path: "Sources/CLibZ", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Debian: libssl-dev (installed by `make deps`); SHA-256 of workspace tables.
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", providers: [.apt(["libssl-dev"])]),
        // glibc's malloc.h (mallopt), part of libc6-dev.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(
            name: "ResonanceLab",
            dependencies: ["CCSV", "CFFTW", "CLibXML2", "CLibZ", "CCrypto", "CMalloc"]
        ),
        .executableTarget(
            name: "resonance",
            dependencies: [
                "ResonanceLab",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer targets for the input parsers (`make fuzz`, see mk/fuzz.mk).
        .executableTarget(name: "resonance-fuzz", dependencies: ["ResonanceLab"]),
        // Helpers shared by the test targets (temporary folders, fixtures, the datasets root).
        .target(name: "ResonanceTestSupport", dependencies: ["ResonanceLab"], path: "Tests/ResonanceTestSupport",
                swiftSettings: testCode),
        // Unit tests: formulas, known answers, small fixtures.
        .testTarget(name: "ResonanceLabTests", dependencies: [
            "ResonanceLab", "ResonanceTestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ], swiftSettings: testCode),
        // Slow simulations: the ten personas over 30 days, planted-effect and mixed-model
        // recovery, imports of the whole public datasets (`make test-simulations`).
        .testTarget(name: "ResonanceLabSimulationTests", dependencies: ["ResonanceLab", "ResonanceTestSupport"],
                    swiftSettings: testCode),
        // The command-line tool run as a user runs it: separate processes, exit codes, messages.
        .testTarget(name: "resonanceTests", dependencies: ["resonance", "ResonanceLab", "ResonanceTestSupport"],
                    swiftSettings: testCode),
    ]
)

import Foundation

/// A song of the shared catalogue with its planted (true) effect.
public struct CatalogueSong: Sendable, Equatable {
    public var songId: String
    public var title: String
    public var artist: String
    public var album: String
    public var genre: Int
    public var durationS: Double
    /// Population popularity weight (Zipf-like): how often the song enters libraries.
    public var popularity: Double
    /// True effect at sensitivity 1: the expected measured per-play delta of a
    /// full-length play (see `MusicResponse`), HR in bpm and RMSSD in ms.
    public var deltaHRBpm: Double
    public var deltaRMSSDMs: Double
}

/// The one catalogue every persona draws its library from, so that most songs are
/// heard by several listeners and song and listener effects can be told apart.
///
/// True effects: ΔHR = genre mean + 3.5·z₁ bpm, ΔRMSSD = −0.6·(ΔHR − genre mean)·(4/3.5)
/// + 3.2·z₂ − 0.6·genre mean ms, z₁, z₂ ~ N(0, 1) truncated at ±2.5: calming songs lower
/// HR and raise RMSSD (correlation ≈ −0.6; HR and vagal tone move oppositely when
/// music lowers arousal, Bernardi et al. 2006, Heart 92:445). Genre means (bpm) run from
/// −2 (ambient) to +2 (electronic), so SD(ΔHR) ≈ 4 bpm and SD(ΔRMSSD) ≈ 4 ms.
public struct SongCatalogue: Sendable {
    public static let genres = ["ambient", "classical", "jazz", "folk", "pop", "rock", "hiphop", "electronic"]
    static let genreMeanHRBpm: [Double] = [-2, -1.5, -0.5, -0.5, 0.5, 1.5, 1, 2]

    public let songs: [CatalogueSong]

    public init(songs: [CatalogueSong]) {
        self.songs = songs
    }

    /// `count` songs drawn from `random`; ids `S001`….
    public static func generate(count: Int, random: inout SeededRandom) -> SongCatalogue {
        let adjectives = ["Blue", "Quiet", "Electric", "Golden", "Broken", "Silver", "Midnight", "Slow",
                          "Wild", "Hollow", "Bright", "Paper", "Velvet", "Northern", "Falling", "Neon"]
        let nouns = ["River", "Morning", "Heart", "Echo", "Horizon", "Garden", "Signal", "Harbor",
                     "Window", "Mountain", "Shadow", "Fire", "Letter", "Orbit", "Meadow", "Tide"]
        let artistCount = max(1, count / 4)
        let artistNames = (0..<artistCount).map { i in
            "\(adjectives[(i * 7) % adjectives.count]) \(nouns[(i * 5 + 3) % nouns.count]) \(["Band", "Trio", "Collective", "Project"][i % 4])"
        }
        let artistGenre = (0..<artistCount).map { _ in random.int(in: 0...(genres.count - 1)) }
        var songs: [CatalogueSong] = []
        songs.reserveCapacity(count)
        for i in 0..<count {
            let artist = random.int(in: 0...(artistCount - 1))
            let genre = artistGenre[artist]
            let z1 = truncatedNormal(&random), z2 = truncatedNormal(&random)
            let mean = genreMeanHRBpm[genre]
            let hr = mean + 3.5 * z1
            let rmssd = -0.6 * mean - 0.6 * 4 * z1 + 3.2 * z2
            let title = "\(adjectives[random.int(in: 0...(adjectives.count - 1))]) \(nouns[random.int(in: 0...(nouns.count - 1))])"
            songs.append(CatalogueSong(
                songId: String(format: "S%03d", i + 1), title: title, artist: artistNames[artist],
                album: "\(artistNames[artist]) Vol. \(1 + artist % 3)", genre: genre,
                durationS: (min(420, max(120, random.normal(mean: 225, sd: 45)))).rounded(),
                popularity: 1 / Double(i + 8).squareRoot(),
                deltaHRBpm: round3(hr), deltaRMSSDMs: round3(rmssd)))
        }
        return SongCatalogue(songs: songs)
    }

    private static func truncatedNormal(_ random: inout SeededRandom) -> Double {
        var z = random.normal()
        while abs(z) > 2.5 { z = random.normal() }
        return z
    }

    /// Truth is written to 3 decimals; the simulation uses the same rounded values.
    static func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}

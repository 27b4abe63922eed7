import Foundation

/// The planted world of one seed of the closed-loop DJ simulation (docs/dj.md,
/// Simulation): a song catalogue with planted effects (`SongCatalogue`) and planted
/// sound features that are related to, but do not determine, each song's effect.
public struct SimulatedWorld: Sendable {
    public let seed: UInt64
    public let catalogue: SongCatalogue
    /// Per catalogue song, its sound (BPM, energy, valence, genre name); song ids are
    /// `r<seed>.S001`…, unique over the seeds of one run.
    public let sounds: [SongSound]

    /// Features from effects: with calmness z = −ΔHR/4 bpm (the catalogue's SD of ΔHR)
    /// and ρ = `featureRelation`, BPM = 115 − 25·(ρ·z + √(1−ρ²)·ε₁) clamped to 55–185,
    /// energy = 0.5 − 0.2·(ρ·z + √(1−ρ²)·ε₂) clamped to 0.02–0.98, valence uniform
    /// 0.2–0.8, ε ~ N(0, 1): calming songs tend to be slower and lower in energy, with
    /// correlation ρ between calmness and each feature. ρ = 0 makes features pure noise.
    public init(seed: UInt64, songs: Int, featureRelation rho: Double) {
        self.seed = seed
        var random = SeededRandom(seed: DJStreams.seed(seed, "catalogue"))
        let catalogue = SongCatalogue.generate(count: songs, random: &random)
        self.catalogue = catalogue
        var features = SeededRandom(seed: DJStreams.seed(seed, "features"))
        let spread = (1 - rho * rho).squareRoot()
        sounds = catalogue.songs.map { s in
            let z = -s.deltaHRBpm / 4
            let bpm = clamp(115 - 25 * (rho * z + spread * features.normal()), 55...185)
            let energy = clamp(0.5 - 0.2 * (rho * z + spread * features.normal()), 0.02...0.98)
            let valence = features.uniform(0.2, 0.8)
            return SongSound(songId: "r\(seed).\(s.songId)", artist: s.artist, genre: SongCatalogue.genres[s.genre],
                             bpm: (bpm * 10).rounded() / 10, energy: (energy * 1000).rounded() / 1000,
                             valence: (valence * 1000).rounded() / 1000)
        }
    }

    /// The planted truth: every song's effect at sensitivity 1 (`song_effect`) and its
    /// planted features (`song_feature`, metrics bpm, energy, valence).
    public func truth() -> [PlantedEffect] {
        var rows: [PlantedEffect] = []
        for (song, sound) in zip(catalogue.songs, sounds) {
            rows.append(PlantedEffect(kind: .songEffect, subject: "", entity: sound.songId, metric: PlantedEffect.metrics[0],
                                      value: song.deltaHRBpm))
            rows.append(PlantedEffect(kind: .songEffect, subject: "", entity: sound.songId, metric: PlantedEffect.metrics[1],
                                      value: song.deltaRMSSDMs))
            for (metric, value) in [("bpm", sound.bpm), ("energy", sound.energy), ("valence", sound.valence)] {
                rows.append(PlantedEffect(kind: PlantedEffect.Kind(rawValue: "song_feature"), subject: "", entity: sound.songId,
                                          metric: metric, value: value ?? .nan))
            }
        }
        return rows
    }

    /// The planted features as `song_features.csv` rows.
    public func featureRows() -> [SongFeatureRow] {
        zip(catalogue.songs, sounds).map { song, sound in
            SongFeatureRow(songId: sound.songId, title: song.title, artist: song.artist, bpm: sound.bpm, energy: sound.energy,
                           valence: sound.valence, genre: sound.genre, source: "simulated")
        }
    }
}

/// Named random streams of the simulation: each purpose (catalogue, features, a
/// listener's world, a day's events, a policy's own draws) has its own seed, so every
/// policy meets the same world and no stream shifts when another draws more.
enum DJStreams {
    static func seed(_ seed: UInt64, _ parts: CustomStringConvertible...) -> UInt64 {
        SeededRandom.djb2("dj|\(seed)|" + parts.map(\.description).joined(separator: "|"))
    }
}

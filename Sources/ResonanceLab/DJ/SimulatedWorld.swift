import Foundation

/// How a simulated world relates song features to song effects (docs/dj.md, Worlds).
/// Only `planted` shares the ranking's own assumption (calming songs slower and lower in
/// energy, feature by feature); the others draw features as real catalogues have them.
public enum DJWorld: String, CaseIterable, Sendable {
    /// Features drawn from each song's planted ΔHR with correlation `feature_relation`.
    case planted
    /// Genre-clustered, inter-correlated BPM, energy and valence (`genreFeatures`, the
    /// genres' typical sounds handed out in an order drawn per seed); effects the
    /// catalogue's, so features relate to them only through the genres' typical sound.
    case genre
    /// Genre features; ΔHR = 0.6·the catalogue's + 2·(((BPM − 100)/25)² − 1) + 2·(0.5 −
    /// valence): most calming near 100 BPM and at high valence, raising HR when slow or
    /// fast — non-linear, and only in part.
    case nonlinear
    /// Genre features and the catalogue's effects, turned per listener by taste: a
    /// song's ΔHR × (2·liking − 1), liking the listener's affinity for its genre over
    /// their largest, so a song calms one listener and lifts another.
    case taste
    /// Genre features given to songs in a random order: unrelated to any effect.
    case none
}

/// The planted world of one seed of the closed-loop DJ simulation (docs/dj.md,
/// Simulation): a song catalogue with planted effects (`SongCatalogue`) and sound
/// features related to them as `world` says.
public struct SimulatedWorld: Sendable {
    public let seed: UInt64
    public let world: DJWorld
    public let catalogue: SongCatalogue
    /// Per catalogue song, its sound (BPM, energy, valence, genre name); song ids are
    /// `r<seed>.S001`…, unique over the seeds of one run.
    public let sounds: [SongSound]
    /// Per catalogue song, its planted ΔHR (bpm) at sensitivity 1 and taste 1.
    public let deltaHRBpm: [Double]

    /// The world of `seed`: the catalogue on the stream `catalogue`; features from
    /// effects in the planted world (`plantedSounds`, stream `features`), else
    /// `genreFeatures` on the stream `world-features`, so the planted world's draws
    /// never move.
    public init(seed: UInt64, songs: Int, featureRelation rho: Double, world: DJWorld = .planted) {
        self.seed = seed; self.world = world
        var random = SeededRandom(seed: DJStreams.seed(seed, "catalogue"))
        let catalogue = SongCatalogue.generate(count: songs, random: &random)
        self.catalogue = catalogue
        var stream = SeededRandom(seed: DJStreams.seed(seed, world == .planted ? "features" : "world-features"))
        let sounds = Self.features(world, catalogue: catalogue, rho: rho, random: &stream).enumerated().map { i, f in
            SongSound(songId: "r\(seed).\(catalogue.songs[i].songId)", artist: catalogue.songs[i].artist,
                      genre: SongCatalogue.genres[catalogue.songs[i].genre], bpm: f.bpm, energy: f.energy, valence: f.valence)
        }
        self.sounds = sounds
        deltaHRBpm = zip(catalogue.songs, sounds).map { song, sound in
            guard world == .nonlinear, let bpm = sound.bpm, let valence = sound.valence else { return song.deltaHRBpm }
            let z = (bpm - 100) / 25
            return 0.6 * song.deltaHRBpm + 2 * (z * z - 1) + 2 * (0.5 - valence)
        }
    }

    /// Typical sounds a genre may have: BPM, energy, valence — slow and quiet, loud and
    /// fast, and between. Which genre sounds which way is drawn per seed (`genreFeatures`).
    static let genreSound: [(bpm: Double, energy: Double, valence: Double)] = [
        (72, 0.22, 0.45), (84, 0.30, 0.50), (104, 0.45, 0.60), (98, 0.38, 0.55),
        (116, 0.66, 0.70), (128, 0.78, 0.55), (94, 0.68, 0.50), (126, 0.82, 0.60),
    ]

    /// Features as real catalogues have them: genre g (`SongCatalogue.genres` order) has
    /// the typical sound `genreSound[order[g]]`, `order` a random permutation (`shuffle`,
    /// the stream's first draws), so whether the calming genres sound slow and quiet is
    /// chance, not the ranking's assumption; per song that sound plus correlated
    /// deviations, BPM + 14·z₁, energy + 0.12·(0.7·z₁ + 0.71·z₂), valence
    /// + 0.12·(0.4·z₂ + 0.92·z₃), z ~ N(0, 1); clamped as in the planted world.
    public static func genreFeatures(_ catalogue: SongCatalogue, random: inout SeededRandom)
        -> [(bpm: Double, energy: Double, valence: Double)] {
        let order = shuffle(genreSound.count, random: &random)
        return catalogue.songs.map { song in
            let g = genreSound[order[min(genreSound.count - 1, max(0, song.genre))]]
            let z1 = random.normal(), z2 = random.normal(), z3 = random.normal()
            let bpm = clamp(g.bpm + 14 * z1, 55...185)
            let energy = clamp(g.energy + 0.12 * (0.7 * z1 + 0.71 * z2), 0.02...0.98)
            let valence = clamp(g.valence + 0.12 * (0.4 * z2 + 0.92 * z3), 0.02...0.98)
            return ((bpm * 10).rounded() / 10, (energy * 1000).rounded() / 1000, (valence * 1000).rounded() / 1000)
        }
    }

    /// How a listener with `liking` (0–1) for a song's genre feels its effect: × (2·liking − 1)
    /// in the taste world, × 1 elsewhere.
    func taste(liking: Double) -> Double { world == .taste ? 2 * liking - 1 : 1 }

    /// Planted features, from effects: with calmness z = −ΔHR/4 bpm (the catalogue's SD of ΔHR)
    /// and ρ = `featureRelation`, BPM = 115 − 25·(ρ·z + √(1−ρ²)·ε₁) clamped to 55–185,
    /// energy = 0.5 − 0.2·(ρ·z + √(1−ρ²)·ε₂) clamped to 0.02–0.98, valence uniform
    /// 0.2–0.8, ε ~ N(0, 1): calming songs tend to be slower and lower in energy, with
    /// correlation ρ between calmness and each feature. ρ = 0 makes features pure noise.
    static func plantedFeatures(_ catalogue: SongCatalogue, rho: Double, random features: inout SeededRandom)
        -> [(bpm: Double, energy: Double, valence: Double)] {
        let spread = (1 - rho * rho).squareRoot()
        return catalogue.songs.map { s in
            let z = -s.deltaHRBpm / 4
            let bpm = clamp(115 - 25 * (rho * z + spread * features.normal()), 55...185)
            let energy = clamp(0.5 - 0.2 * (rho * z + spread * features.normal()), 0.02...0.98)
            let valence = features.uniform(0.2, 0.8)
            return ((bpm * 10).rounded() / 10, (energy * 1000).rounded() / 1000, (valence * 1000).rounded() / 1000)
        }
    }

    /// The features of `world` for `catalogue`'s songs, in its order, from `random`:
    /// planted (`plantedFeatures`), genre features (`genreFeatures`; the non-linear and
    /// taste worlds too), or for `none` genre features handed to songs in a random
    /// order (Fisher–Yates).
    public static func features(_ world: DJWorld, catalogue: SongCatalogue, rho: Double, random: inout SeededRandom)
        -> [(bpm: Double, energy: Double, valence: Double)] {
        switch world {
        case .planted: return plantedFeatures(catalogue, rho: rho, random: &random)
        case .genre, .nonlinear, .taste: return genreFeatures(catalogue, random: &random)
        case .none:
            let drawn = genreFeatures(catalogue, random: &random)
            return shuffle(drawn.count, random: &random).map { drawn[$0] }
        }
    }

    /// A random permutation of 0..<n (Fisher–Yates, from the last position down).
    static func shuffle(_ n: Int, random: inout SeededRandom) -> [Int] {
        var order = Array(0..<n)
        for i in stride(from: n - 1, to: 0, by: -1) { order.swapAt(i, random.int(in: 0...i)) }
        return order
    }

    /// The planted truth: every song's effect at sensitivity 1 (`song_effect`) and its
    /// planted features (`song_feature`, metrics bpm, energy, valence).
    public func truth() -> [PlantedEffect] {
        var rows: [PlantedEffect] = []
        for ((song, sound), hr) in zip(zip(catalogue.songs, sounds), deltaHRBpm) {
            rows.append(PlantedEffect(kind: .songEffect, subject: "", entity: sound.songId, metric: PlantedEffect.metrics[0],
                                      value: hr))
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
                           valence: sound.valence, genre: sound.genre, source: "simulated \(world.rawValue)")
        }
    }
}

extension PersonaProfile {
    /// A listener like this persona drawn for one seed of the DJ simulation (docs/dj.md,
    /// Simulation), so that intervals over seeds hold profile variation too: sensitivity
    /// × e^(0.35·z₁), each genre affinity × e^(0.5·z), skip propensity × e^(0.3·z₂) (at
    /// most 0.6), resting HR + 4·z₃ bpm (45–95), z ~ N(0, 1) each from `random`; the
    /// rest the persona's.
    func drawn(random: inout SeededRandom) -> PersonaProfile {
        var p = self
        p.sensitivity = sensitivity * exp(0.35 * random.normal())
        p.listening.genreAffinity = listening.genreAffinity.map { $0 * exp(0.5 * random.normal()) }
        p.listening.skipPropensity = min(0.6, listening.skipPropensity * exp(0.3 * random.normal()))
        p.restingHRBpm = clamp(restingHRBpm + 4 * random.normal(), 45...95)
        return p
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

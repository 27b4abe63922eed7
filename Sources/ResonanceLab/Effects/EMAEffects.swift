/// Confidence-weighted mean of EMA states (docs/engines/toolkit.md, Song effect: "song aggregate =
/// confidence-weighted mean over contexts"); also used across listeners.
struct EMAAggregate {
    private var w = 0.0, calm = 0.0, energy = 0.0, focus = 0.0, mood = 0.0, skip = 0.0
    private var wHR = 0.0, hr = 0.0, wRMSSD = 0.0, rmssd = 0.0, confidence = 0.0, parts = 0.0
    private(set) var plays = 0, hrPlays = 0, rmssdPlays = 0

    mutating func add(_ s: EMAState) {
        let c = s.confidence
        w += c; calm += c * s.scores.calm; energy += c * s.scores.energy; focus += c * s.scores.focus
        mood += c * s.scores.moodLift; skip += c * s.skip
        if s.hrPlays > 0 { wHR += c; hr += c * s.hrDelta }
        if s.rmssdPlays > 0 { wRMSSD += c; rmssd += c * s.rmssdDelta }
        confidence += c; parts += 1
        plays += s.plays; hrPlays += s.hrPlays; rmssdPlays += s.rmssdPlays
    }

    /// The aggregate as a state: weighted means, summed play counts, and the mean
    /// confidence of its parts.
    func state(_ constants: SongEffectConstants) -> EMAState {
        var s = EMAState(constants: constants)
        guard w > 0 else { return s }
        s.scores = PlayScores(calm: calm / w, energy: energy / w, focus: focus / w, moodLift: mood / w)
        s.skip = skip / w
        s.hrDelta = wHR > 0 ? hr / wHR : .nan
        s.rmssdDelta = wRMSSD > 0 ? rmssd / wRMSSD : .nan
        s.plays = plays; s.hrPlays = hrPlays; s.rmssdPlays = rmssdPlays
        s.confidence = confidence / parts
        return s
    }
}

/// The `ema` model: replays the product's learning in play order, per listener ×
/// song × context (the app learns on each user's phone), then aggregates over
/// contexts (confidence-weighted, docs/engines/toolkit.md, Song effect) and over listeners (the same weighting,
/// a toolkit choice so songs compare with the population model).
enum EMAEffects {
    static func run(_ x: PlayIndex, registry: ConstantsRegistry) -> EffectTables {
        let s = SongEffectConstants(registry: registry)
        let nc = max(1, x.sessionContexts.count), ns = max(1, x.songIds.count)
        var songAny = [EMAAggregate](repeating: EMAAggregate(), count: ns)
        var songContext = [EMAAggregate](repeating: EMAAggregate(), count: ns * nc)
        var familiarity = [Double](repeating: 0, count: ns), listeners = [Int](repeating: 0, count: ns)
        var cellListeners = [Int](repeating: 0, count: ns * nc)
        var out = EffectTables()
        do {
            let replay = EMAReplay(x, impact: ImpactConstants(registry: registry))
            replay.replay(s, context: { _, i, c, state in
                songContext[i * nc + c].add(state)
                cellListeners[i * nc + c] += 1
            }, listenerSong: { _, i, agg in
                songAny[i].add(agg)
                familiarity[i] += min(1, Double(agg.plays) / s.familiarityFullPlays)
                listeners[i] += 1
            })
            out.personas = personaRows(replay, x, songs: songAny.map { $0.state(s) }, s)
        }
        out.songs.reserveCapacity(EffectMetric.allCases.count * (x.songIds.count + cellListeners.filter { $0 > 0 }.count))
        var summaries: [EffectMetric: [SongSummary]] = [:]
        for i in 0..<x.songIds.count {
            let song = songAny[i].state(s)
            let fam = listeners[i] > 0 ? familiarity[i] / Double(listeners[i]) : nil
            out.songs += rows(x.songIds[i], "any", song, listeners: listeners[i], familiarity: fam)
            for c in 0..<x.sessionContexts.count where cellListeners[i * nc + c] > 0 {
                out.songs += rows(x.songIds[i], x.sessionContexts[c], songContext[i * nc + c].state(s), listeners: cellListeners[i * nc + c],
                                  familiarity: nil)
            }
            for m in EffectMetric.allCases {
                summaries[m, default: []].append(SongSummary(estimate: value(song, m), variance: nil, scores: song.scores,
                                                             weight: { _ in song.confidence }))
            }
        }
        for m in EffectMetric.allCases {
            out.playlists += PlaylistAggregation.rows(model: "ema", metric: m, index: x, songs: summaries[m] ?? [], z: 0)
        }
        return out
    }

    /// Per listener and metric: for ΔHR and ΔRMSSD the least-squares slope through the
    /// origin of the listener's song values on the songs' aggregates `songs` (an ema
    /// sensitivity); for skip the listener's confidence-weighted mean. The aggregates need
    /// every listener, so the listeners' song states come from a second replay (the same
    /// states in the same order) instead of being held from the first.
    static func personaRows(_ replay: EMAReplay, _ x: PlayIndex, songs: [EMAState], _ s: SongEffectConstants) -> [PersonaEffectRow] {
        let metrics = EffectMetric.allCases
        var sums = [(sxy: Double, sxx: Double, sw: Double, swy: Double)](repeating: (0, 0, 0, 0),
                                                                          count: x.subjects.count * metrics.count)
        var plays = [Int](repeating: 0, count: x.subjects.count)
        replay.replay(s) { j, i, st in
            plays[j] += st.plays
            for (k, m) in metrics.enumerated() {
                guard let mine = value(st, m), let all = value(songs[i], m) else { continue }
                let c = j * metrics.count + k
                sums[c].sxy += mine * all; sums[c].sxx += all * all; sums[c].sw += st.confidence; sums[c].swy += st.confidence * mine
            }
        }
        // A listener without an estimate of a metric (no play with heart data) has no row for it.
        return x.subjects.indices.flatMap { j in
            metrics.enumerated().compactMap { k, m in
                let t = sums[j * metrics.count + k]
                guard let estimate = m == .skip ? (t.sw > 0 ? t.swy / t.sw : nil) : (t.sxx > 0 ? t.sxy / t.sxx : nil)
                else { return nil }
                return PersonaEffectRow(model: "ema", subject: x.subjects[j], metric: m.rawValue, effect: EffectEstimate(value: estimate),
                                        plays: plays[j], kind: m == .skip ? "mean" : "sensitivity")
            }
        }
    }

    static func value(_ s: EMAState, _ m: EffectMetric) -> Double? {
        switch m {
        case .deltaHR: return s.hrPlays > 0 && s.hrDelta.isFinite ? s.hrDelta : nil
        case .deltaRMSSD: return s.rmssdPlays > 0 && s.rmssdDelta.isFinite ? s.rmssdDelta : nil
        case .skip: return s.plays > 0 ? s.skip : nil
        }
    }

    /// The song's rows, one per metric it has an estimate of: a song without plays with
    /// heart data (or R-R) has no ΔHR (ΔRMSSD) row.
    static func rows(_ song: String, _ context: String, _ s: EMAState, listeners: Int, familiarity: Double?) -> [SongEffectRow] {
        EffectMetric.allCases.compactMap { m in
            guard let estimate = value(s, m) else { return nil }
            let plays = m == .deltaHR ? s.hrPlays : m == .deltaRMSSD ? s.rmssdPlays : s.plays
            return SongEffectRow(model: "ema", songId: song, context: context, metric: m.rawValue,
                                 effect: EffectEstimate(value: estimate), plays: plays, scores: s.scores, confidence: s.confidence,
                                 shrinkage: nil, listeners: listeners, familiarity: familiarity)
        }
    }
}

import XCTest
@testable import ResonanceLab

/// Replay on logged listening: no look-ahead, ranks and the summary's hit rates.
final class ReplayTests: XCTestCase {
    let t0: Int64 = 20458 * 86_400_000 + 14 * 3_600_000

    func play(_ i: Int, song: String, hrDelta: Double, playlist: String = "") -> SessionPlayRow {
        let start = t0 + Int64(i) * 240_000
        return SessionPlayRow(subject: "L", sessionId: "L-1", playId: "p\(i)", songId: song,
                              biometrics: WindowBiometrics(hrStart: 70, hrEnd: 70 + hrDelta, hrvStart: 40, hrvEnd: 40,
                                                           hrvSource: "rr", notes: []),
                              quality: "ok", playlist: playlist, startedAtMs: start, endedAtMs: start + 200_000, playedS: 200,
                              listenFraction: 1, skipped: false, context: "relaxation", timeSlot: "afternoon")
    }

    func replay(_ plays: [SessionPlayRow]) throws -> [DJDecisionRow] {
        let hr = (0..<400).map { TimedSample(tMs: t0 - 600_000 + Int64($0) * 5000, value: 75) }
        return try DJReplay(registry: .defaults).listener(plays: plays, hr: hr, sdnn: [], workouts: [], features: [:], offsets: [:]).decisions
    }

    func testAnEffectLearnedAfterAPlayNeverChangesItsDecision() throws {
        let plays = [play(0, song: "a", hrDelta: -4), play(1, song: "b", hrDelta: 3), play(2, song: "a", hrDelta: -2),
                     play(3, song: "b", hrDelta: 1), play(4, song: "b", hrDelta: 0)]
        let base = try replay(plays)
        XCTAssertEqual(base.count, 5)
        // Change what the last two plays teach, and add a later play of a new song.
        var changed = plays
        changed[3].biometrics.hrEnd = 90
        changed[4].biometrics.hrEnd = 40
        changed.append(play(5, song: "d", hrDelta: -9))
        let after = try replay(changed)
        XCTAssertEqual(Array(after.prefix(4)), Array(base.prefix(4)), "decisions up to play 3 see nothing of plays 3 and later")
        XCTAssertNotEqual(after[4], base[4], "play 4's decision does see what play 3 taught")
    }

    /// Five days of HR, SDNN and R-R that vary all the time; plays on days 0, 3 and 4 (from
    /// day 3 on, the baselines are the listener's own: 3 earlier days). Changing everything
    /// after a play's start (HR, SDNN and R-R later that day, so the day's resting HR and
    /// median SDNN too) leaves its decision and every earlier one identical; changing the
    /// data just before it does change it.
    func testDecisionsSeeNoHeartRateSDNNOrRRAfterTheirStart() throws {
        let day0 = t0 - 14 * 3_600_000, dayMs: Int64 = 86_400_000
        func at(_ day: Int64, _ hour: Double, _ i: Int, song: String, session: String) -> SessionPlayRow {
            var p = play(i, song: song, hrDelta: Double(i % 3) - 1)
            p.sessionId = session
            p.startedAtMs = day0 + day * dayMs + Int64(hour * 3_600_000)
            p.endedAtMs = p.startedAtMs + 200_000
            return p
        }
        let plays = [at(0, 9, 0, song: "a", session: "s1"), at(0, 9.1, 1, song: "b", session: "s1"),
                     at(0, 18, 2, song: "c", session: "s2"), at(3, 8, 3, song: "a", session: "s3"),
                     at(3, 8.1, 4, song: "c", session: "s3"), at(4, 20, 5, song: "b", session: "s4")]
        func series(_ stepMs: Int64, _ value: (Double) -> Double) -> [TimedSample] {
            let end: Int64 = day0 + 5 * dayMs
            return stride(from: day0, to: end, by: Int(stepMs)).map { (t: Int64) -> TimedSample in
                let seconds = Double(t - day0) / 1000
                return TimedSample(tMs: t, value: value(seconds))
            }
        }
        let hr = series(5000) { (s: Double) -> Double in 68.0 + 12.0 * sin(s / 700) + 4.0 * sin(s / 97) }
        let sdnn = series(60_000) { (s: Double) -> Double in 45.0 + 15.0 * cos(s / 1300) }
        let rr = series(2000) { (s: Double) -> Double in 850.0 + 60.0 * sin(s / 11) + 30.0 * cos(s / 5000) }
        func decide(_ hr: [TimedSample], _ sdnn: [TimedSample], _ rr: [TimedSample]) throws -> [DJDecisionRow] {
            try DJReplay(registry: .defaults).listener(plays: plays, hr: hr, sdnn: sdnn, rr: rr, workouts: [], features: [:], offsets: [:]).decisions
        }
        let base = try decide(hr, sdnn, rr)
        XCTAssertEqual(base.count, plays.count)
        for (k, p) in plays.enumerated() {
            func future(_ s: [TimedSample], _ f: (Double) -> Double) -> [TimedSample] {
                s.map { $0.tMs > p.startedAtMs ? TimedSample(tMs: $0.tMs, value: f($0.value)) : $0 }
            }
            let changedHR = future(hr) { (v: Double) -> Double in v + 35 }
            let changedSDNN = future(sdnn) { (v: Double) -> Double in v * 0.3 }
            let changedRR = future(rr) { (v: Double) -> Double in v * 0.6 + 100 * sin(v) }
            let changed = try decide(changedHR, changedSDNN, changedRR)
            XCTAssertEqual(Array(changed.prefix(k + 1)), Array(base.prefix(k + 1)), "decisions up to play \(k) see its future")
        }
        // The past does count: HR, SDNN and R-R in the 10 minutes before play 4 move its state.
        let p4 = plays[4].startedAtMs
        func past(_ s: [TimedSample], _ f: (Double) -> Double) -> [TimedSample] {
            s.map { $0.tMs > p4 - 600_000 && $0.tMs <= p4 ? TimedSample(tMs: $0.tMs, value: f($0.value)) : $0 }
        }
        let movedHR = past(hr) { (v: Double) -> Double in v + 35 }
        let movedSDNN = past(sdnn) { (v: Double) -> Double in v * 0.3 }
        let movedRR = past(rr) { (v: Double) -> Double in v * 0.6 }
        let moved = try decide(movedHR, movedSDNN, movedRR)
        XCTAssertNotEqual([moved[4].arousal, moved[4].stress], [base[4].arousal, base[4].stress])
    }

    /// Heart rate and R-R held forward in time (a piece of the table at a time) give every
    /// decision and every day's baseline what the whole recording gives them.
    func testHeldForwardInTimeEveryDecisionIsThatOfTheWholeRecording() throws {
        let day0 = t0 - 14 * 3_600_000, dayMs: Int64 = 86_400_000
        var plays: [SessionPlayRow] = []
        for day in 0..<6 {
            for (k, hour) in [7.5, 12, 21.9].enumerated() {
                var p = play(day * 3 + k, song: ["a", "b", "c", "d"][(day + k) % 4], hrDelta: Double(k) - 1)
                p.sessionId = "s\(day)-\(k)"
                p.startedAtMs = day0 + Int64(day) * dayMs + Int64(hour * 3_600_000)
                p.endedAtMs = p.startedAtMs + 200_000
                plays.append(p)
            }
        }
        var hr: [HRSample] = [], rr: [RRInterval] = []
        for t in stride(from: day0, to: day0 + 6 * dayMs, by: 7_000) {
            let s = Double(t - day0) / 1000
            hr.append(HRSample(subject: "L", timestampMs: t, bpm: (64 + 10 * sin(s / 900) + 3 * sin(s / 61)).rounded(), source: "w"))
        }
        for t in stride(from: day0, to: day0 + 6 * dayMs, by: 900) where (t / 600_000) % 3 != 0 {
            let s = Double(t - day0) / 1000
            // A few intervals outside the plausible range, which the replay leaves out.
            rr.append(RRInterval(subject: "L", timestampMs: t, rrMs: (t / 900) % 101 == 0 ? 3100 : (880 + 70 * sin(s / 13)).rounded(),
                                 source: "e4"))
        }
        let sdnn = stride(from: day0, to: day0 + 6 * dayMs, by: 300_000).map { TimedSample(tMs: $0, value: 40 + Double($0 / 300_000 % 17)) }
        let ws = Workspace(path: try makeTempDir())
        try ws.write(hr); try ws.write(rr)
        let plausible = RRConstants.defaults
        let replay = DJReplay(registry: .defaults)
        let whole = try replay.listener(
            plays: plays, hr: hr.map { TimedSample(tMs: $0.timestampMs, value: $0.bpm) }, sdnn: sdnn,
            rr: rr.filter { $0.rrMs >= plausible.rrMinMs && $0.rrMs <= plausible.rrMaxMs }.map { TimedSample(tMs: $0.timestampMs, value: $0.rrMs) },
            workouts: [], features: [:], offsets: [:])
        // The baselines of later days differ from the fallback, and beats set the HRV.
        XCTAssertEqual(whole.decisions.count, 18)
        XCTAssertGreaterThan(Set(whole.decisions.map(\.stress)).count, 10)
        for pieces in [1, 333, 8192] {
            var physiology = try ReplayPhysiology.streamed(
                hr: try SubjectIndex(HRSample.self, path: ws.file(HRSample.fileName), pieceRecords: pieces),
                rr: try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName), pieceRecords: pieces),
                subject: "L", sdnn: sdnn, plausible: plausible, restingQuantile: replay.state.restingHRQuantile)
            var decisions: [DJDecisionRow] = [], receipts: [DJReceiptRow] = []
            let held = try replay.listener(plays: plays, physiology: &physiology, workouts: [], features: [:], offsets: [:],
                                           birthYear: nil) { decisions.append($0); receipts += $1 }
            XCTAssertTrue(held.decisions.isEmpty)
            XCTAssertEqual(try Workspace.encode(decisions).bytes, try Workspace.encode(whole.decisions).bytes, "pieces of \(pieces)")
            XCTAssertEqual(try Workspace.encode(receipts).bytes, try Workspace.encode(whole.receipts).bytes, "pieces of \(pieces)")
            XCTAssertEqual(held.songOrder, whole.songOrder)
            XCTAssertLessThan(physiology.hr.count, hr.count / 10)
        }
        var back = hr
        back.swapAt(100, 101)
        try ws.write(back)
        XCTAssertThrowsError(try ReplayPhysiology.streamed(
            hr: try SubjectIndex(HRSample.self, path: ws.file(HRSample.fileName)), rr: try SubjectIndex(RRInterval.self, path: ws.file(RRInterval.fileName)),
            subject: "L", sdnn: sdnn, plausible: plausible, restingQuantile: 0.05)) { XCTAssertTrue($0 is OutOfOrder, "\($0)") }
    }

    /// The usual energy counts the 30-s states of earlier days' plays, each from its
    /// decision to its end. Monday (t0's day, 14:00): ten 2.5-min plays 3 min apart at HR
    /// 75 (6 states each), then at 14:40 a 5-min play at HR 100 (11 states); without SDNN
    /// stress is 0.5, so a state's energy is 0.6·(HR − 60)/130 + 0.2: e75 = 0.26923,
    /// e100 = 0.38462. The 14:40 play has 60 states of the same day in its hour but no
    /// usual energy: its energy is e100. A week later at 14:00, HR 100: 0.8·e100 + 0.2·u,
    /// u = (60·e75 + 11·e100)/71.
    func testUsualEnergyCountsEarlierDaysThirtySecondStates() throws {
        let week: Int64 = 7 * 86_400_000
        func at(_ startMs: Int64, _ seconds: Int64, _ i: Int) -> SessionPlayRow {
            var p = play(i, song: "s\(i)", hrDelta: 0)
            p.startedAtMs = startMs; p.endedAtMs = startMs + seconds * 1000
            return p
        }
        let plays = (0..<10).map { at(t0 + Int64($0) * 180_000, 150, $0) } + [at(t0 + 2_400_000, 300, 10), at(t0 + week, 150, 11)]
        let monday = (0..<720).map { i -> TimedSample in
            let t = t0 - 600_000 + Int64(i) * 5000
            return TimedSample(tMs: t, value: t > t0 + 2_100_000 ? 100 : 75)
        }
        let nextMonday = (0..<240).map { TimedSample(tMs: t0 + week - 600_000 + Int64($0) * 5000, value: 100) }
        let rows = try DJReplay(registry: .defaults).listener(plays: plays, hr: monday + nextMonday, sdnn: [], workouts: [],
                                                                features: [:], offsets: [:]).decisions
        let e75 = 0.6 * 15 / 130 + 0.2, e100 = 0.6 * 40 / 130 + 0.2
        XCTAssertEqual(rows[0].energy, e75, accuracy: 1e-12)
        XCTAssertEqual(rows[10].energy, e100, accuracy: 1e-12, "states of the same day do not count")
        XCTAssertEqual(rows[11].energy, 0.8 * e100 + 0.2 * (60 * e75 + 11 * e100) / 71, accuracy: 1e-12)
    }

    func testCandidatesAreEarlierSongsAndThePlayedOne() throws {
        let rows = try replay([play(0, song: "a", hrDelta: -4), play(1, song: "b", hrDelta: 3), play(2, song: "a", hrDelta: -2)])
        XCTAssertEqual(rows.map(\.candidates), [1, 2, 2])
        XCTAssertEqual(rows[0].playedRank, 1)
        XCTAssertNil(rows[0].predictedPlayedDeltaHRBpm, "nothing learned before the first play")
        XCTAssertEqual(rows[2].predictedPlayedDeltaHRBpm ?? .nan, 0.4 * -4, accuracy: 1e-12, "EMA from 0 with α 0.4, play 0 only")
        // Play 2 (song a, started 8 min after a's first play) carries its recency penalty.
        XCTAssertEqual(rows[2].recencyPenalty, 1 - 8.0 / 60, accuracy: 1e-12)
        // Playlists limit candidates to earlier songs of the same playlist.
        let listed = try replay([play(0, song: "a", hrDelta: 0, playlist: "P"), play(1, song: "b", hrDelta: 0, playlist: "Q"),
                             play(2, song: "c", hrDelta: 0, playlist: "P")])
        XCTAssertEqual(listed.map(\.candidates), [1, 1, 2])
    }

    func testADroppedSessionTeachesNothing() throws {
        // A 3-minute session alone (dropped as too short: no session id, no session
        // context), ΔHR +16; then a kept session replays the song twice.
        var dropped = play(0, song: "a", hrDelta: 16)
        dropped.sessionId = ""; dropped.sessionContext = ""
        let rows = try replay([dropped, play(10, song: "a", hrDelta: -4), play(11, song: "a", hrDelta: 0)])
        XCTAssertNil(rows[1].predictedPlayedDeltaHRBpm, "nothing learned from the dropped play")
        XCTAssertEqual(rows[2].predictedPlayedDeltaHRBpm ?? .nan, 0.4 * -4, accuracy: 1e-12, "the kept play only")
        XCTAssertEqual(rows[1].familiarity, 0.1, accuracy: 1e-12, "the dropped play still counts as played (1/10)")
    }

    func testPlaysAreLearnedUnderTheirSessionsContextWithTheBiometricsFlag() throws {
        // Own time slot "work", session context "relaxation"; 16 plays, the last with no
        // change in HR or HRV (exactly 0): confidence 16/20 capped at 0.7.
        var plays = (0..<16).map { play($0, song: "a", hrDelta: $0 == 15 ? 0 : -2) }
        for i in plays.indices { plays[i].context = "work"; plays[i].sessionContext = "relaxation" }
        let hr = (0..<400).map { TimedSample(tMs: t0 - 600_000 + Int64($0) * 5000, value: 75) }
        let out = try DJReplay(registry: .defaults).listener(plays: plays, hr: hr, sdnn: [], workouts: [], features: [:], offsets: [:])
        let relaxation = try XCTUnwrap(ListeningContext.allCases.firstIndex(of: .relaxation))
        let work = try XCTUnwrap(ListeningContext.allCases.firstIndex(of: .work))
        XCTAssertEqual(out.songOrder, ["a"])
        XCTAssertNil(out.learner.state(song: 0, context: work))
        let learned = try XCTUnwrap(out.learner.state(song: 0, context: relaxation))
        XCTAssertEqual(learned.plays, 16)
        XCTAssertEqual(learned.confidence, 0.7, accuracy: 1e-12)
    }

    /// A generated persona workspace, its sessions, then the replay and the `ema` model:
    /// every (listener, song, session context) state is the same, bit for bit.
    func testReplayLearnsExactlyAsTheEMAModelOnAPersonaWorkspace() throws {
        let ws = Workspace(path: try makeTempDir())
        let personas = ["CollegeStudent", "WeekendWarrior"].compactMap(PersonaProfile.named)
        XCTAssertEqual(personas.count, 2)
        try PersonaGenerator(personas: personas, days: 6).generate(into: ws, jobs: 1)
        let sessions = try SessionsStage.run(plays: try ws.read(Play.self), hr: try ws.read(HRSample.self), nn: [:], sdnn: [],
                                             sleep: [], workouts: try ws.read(Workout.self), constants: .defaults)
        // Every listener's first session as if dropped as too short (no session, no context).
        var firsts: [String: String] = [:]
        for r in sessions.plays where firsts[r.subject] == nil { firsts[r.subject] = r.sessionId }
        let rows = sessions.plays.map { r -> SessionPlayRow in
            var r = r
            if firsts[r.subject] == r.sessionId { r.sessionId = ""; r.sessionContext = "" }
            return r
        }
        XCTAssertGreaterThan(rows.filter { $0.sessionContext.isEmpty }.count, 1, "plays of dropped sessions")
        let index = PlayIndex(rows)
        var ema: [String: EMAState] = [:]
        EMAReplay(index, impact: ImpactConstants(registry: .defaults)).replay(SongEffectConstants(registry: .defaults), context: { j, i, c, st in
            ema["\(index.subjects[j])|\(index.songIds[i])|\(index.sessionContexts[c])"] = st
        }, listenerSong: { _, _, _ in })
        var replayed: [String: EMAState] = [:]
        let replay = DJReplay(registry: .defaults)
        for (subject, mine) in Dictionary(grouping: rows, by: \.subject) {
            let out = try replay.listener(plays: mine, hr: [], sdnn: [], workouts: [], features: [:], offsets: [:])
            for (i, song) in out.songOrder.enumerated() {
                for (c, context) in ListeningContext.allCases.enumerated() {
                    if let st = out.learner.state(song: i, context: c) { replayed["\(subject)|\(song)|\(context.rawValue)"] = st }
                }
            }
        }
        XCTAssertGreaterThan(ema.count, 20)
        XCTAssertEqual(Set(replayed.keys), Set(ema.keys))
        for (key, state) in ema { XCTAssertEqual(replayed[key], state, key) }
    }

    func testSummaryHitRates() {
        func row(_ rank: Int, _ need: String, top: Double?, played: Double?, neutral: Int = 0) -> DJDecisionRow {
            DJDecisionRow(subject: "L", playId: "p", startedAtMs: 0, songId: "s", context: "work", need: need, arousal: 0, stress: 0,
                          energy: 0, confidence: 0, targetBPM: 100, candidates: 20, playedRank: rank, playedWasCandidate: rank != 7, topSongId: "t", playedScore: 0,
                          topScore: 0, bpmMatch: 0, energyMatch: 0, familiarity: 0, historicalEffect: 0, contextAlignment: 0,
                          recencyPenalty: 0, timeOfDay: 1, neutralTerms: neutral, predictedPlayedDeltaHRBpm: played,
                          predictedTopDeltaHRBpm: top, predictedPlayedDeltaRMSSDMs: nil, predictedTopDeltaRMSSDMs: nil)
        }
        let s = DJReplay.summary([row(1, "calm", top: -3, played: -3), row(4, "calm", top: -5, played: -1),
                                  row(7, "maintain", top: 1, played: nil, neutral: 2),
                                  row(12, "maintain", top: nil, played: nil, neutral: 1)])
        func v(_ need: String, _ m: String) -> Double? { s.first { $0.need == need && $0.metric == m }?.value }
        XCTAssertEqual(v("all", "top1_rate"), 0.25)
        // Without the played song added: rank 7's song was no candidate, so it is a miss.
        XCTAssertEqual(v("all", "top10_rate_without_added"), 0.5)
        XCTAssertEqual(v("all", "top1_rate_without_added"), 0.25)
        XCTAssertEqual(v("all", "top5_rate"), 0.5)
        XCTAssertEqual(v("all", "top10_rate"), 0.75)
        XCTAssertEqual(v("all", "dm_delta_hr_bpm"), -2, "mean of (−3 − −3) and (−5 − −1)")
        XCTAssertEqual(v("calm", "top5_rate"), 1)
        XCTAssertNil(v("maintain", "dm_delta_hr_bpm"))
        XCTAssertNil(v("focus", "top1_rate"))
        // Only the play whose song had neither BPM nor energy (both terms neutral) counts.
        XCTAssertEqual(v("all", "played_without_features"), 1)
        XCTAssertEqual(v("calm", "played_without_features"), 0)
    }
}

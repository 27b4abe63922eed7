import Foundation
import XCTest

/// `resonance import` of plays with a song features file, then `dj replay` on the
/// result, run as a separate process.
final class SongFeaturesCommandTests: XCTestCase {
    /// Last.fm scrobbles of P1 (three songs, four plays), P1's heart rate and a
    /// Kaggle-layout features file: two played songs match by normalised title + artist
    /// (one BPM from the genre table), one does not; one row is rejected; one feature
    /// row is never played. The DJ's replay then scores the matched songs on their
    /// features and the third neutral.
    func testImportsPlaysWithFeaturesAndTheReplayUsesThem() throws {
        let dir = try makeTempDir()
        try writeFixture("""
            artist,album,track,uts
            Café del Mar,Vol 1,Café del Mar (feat. Energy 52),1700000000
            José González,Veneer,Heartbeats,1700000300
            José González,Veneer,Heartbeats,1700000600
            Unknown Band,X,Nothing Known,1700000900

            """, to: dir + "/P1/scrobbles.csv")
        var hr = "time,bpm\n"
        for k in 0..<260 { hr += "\(1_699_999_700 + 5 * k),\(70 + k % 6)\n" }
        try writeFixture(hr, to: dir + "/P1/hr.csv")
        try writeFixture("""
            ,track_id,artists,album_name,track_name,popularity,duration_ms,explicit,danceability,energy,key,loudness,mode,speechiness,acousticness,instrumentalness,liveness,valence,tempo,time_signature,track_genre
            0,5SuO,Cafe del Mar;Energy 52,Vol 1,cafe del mar,73,230666,False,0.676,0.461,1,-6.746,0,0.143,0.0322,0,0.358,0.715,87.917,4,ambient
            1,4qPN,Jose Gonzalez,Veneer,Heartbeats,55,149610,False,0.42,0.166,1,-17.235,1,0.0763,0.924,0,0.101,0.267,,4,jazz
            2,6lfx,Someone,Y,Too Fast,71,201933,False,0.266,0.0596,0,-18.515,1,0.0363,0.905,0,0.132,0.143,300,3,rock
            3,9abc,Someone,Y,Never Played,71,201933,False,0.266,0.5,0,-18.515,1,0.0363,0.905,0,0.132,0.5,120,4,pop

            """, to: dir + "/lib/tracks.csv")
        let ws = dir + "/ws"
        let run = try resonance("import", dir + "/P1", dir + "/lib/tracks.csv", "--out", ws, "--quiet")
        XCTAssertEqual(run.status, ExitStatus.success, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let features = try String(contentsOfFile: ws + "/song_features.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        let plays = try String(contentsOfFile: ws + "/plays.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        func songId(_ title: String) -> String {
            plays.first { $0.contains(title) }.map { String($0.split(separator: ",")[2]) } ?? "?"
        }
        let source = "lib/tracks.csv"
        XCTAssertEqual(features.first, "song_id,title,artist,bpm,energy,valence,genre,source")
        XCTAssertEqual(Set(features.dropFirst()), [
            "\(songId("Café del Mar")),Café del Mar (feat. Energy 52),Café del Mar,87.917,0.461,0.715,ambient,\(source)",
            "\(songId("Heartbeats")),Heartbeats,José González,100.0,0.166,0.267,jazz,genre_bpm",
            "9abc,Never Played,Someone,120.0,0.5,0.5,pop,\(source)",
        ])
        let rejects = try String(contentsOfFile: ws + "/rejects.csv", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(rejects.count, 2)
        XCTAssertTrue(rejects[1].hasPrefix("\(source),4,19,bpm outside 30–250,"), String(rejects[1]))
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ws + "/manifest.json"))) as? [String: Any]
        let match = manifest?["songFeatures"] as? [String: Any] ?? [:]
        XCTAssertEqual(match["songsPlayed"] as? Int, 3)
        XCTAssertEqual(match["songsWithFeatures"] as? Int, 2)
        XCTAssertEqual(match["matchedByTitleArtist"] as? Int, 2)
        XCTAssertEqual(match["playsCovered"] as? Int, 3)
        XCTAssertEqual(match["playMatchRate"] as? Double, 0.75)
        XCTAssertEqual(match["unmatchedRows"] as? Int, 1)

        XCTAssertEqual(try resonance("sessions", ws, "--quiet").status, ExitStatus.success)
        let replay = try resonance("dj", "replay", ws, "--quiet")
        XCTAssertEqual(replay.status, ExitStatus.success, replay.stderr)
        let decisions = try String(contentsOfFile: ws + "/dj_decisions.csv", encoding: .utf8).split(separator: "\n")
        let header = decisions[0].split(separator: ",")
        let neutral = try XCTUnwrap(header.firstIndex(of: "neutral_terms"))
        let song = try XCTUnwrap(header.firstIndex(of: "song_id"))
        let bySong = decisions.dropFirst().map { ($0.split(separator: ",")[song], $0.split(separator: ",")[neutral]) }
        XCTAssertEqual(bySong.map { "\($0.0)=\($0.1)" }, [
            "\(songId("Café del Mar"))=0", "\(songId("Heartbeats"))=0", "\(songId("Heartbeats"))=0", "\(songId("Nothing Known"))=2",
        ], "features found for the matched songs, both terms neutral for the other")
        let summary = try String(contentsOfFile: ws + "/dj_replay_summary.csv", encoding: .utf8)
        XCTAssertTrue(summary.contains("all,played_without_features,1.0\n"), summary)
    }

    /// A features file without a key column stops the import with one line naming the
    /// file and the key columns expected, exit 1, and no workspace.
    func testFeaturesWithoutKeyColumnFailsWithOneLine() throws {
        let dir = try makeTempDir()
        let path = try writeFixture("tempo,energy,valence,track_genre\n120,0.5,0.5,pop\n", to: dir + "/features.csv")
        assertFailure(try resonance("import", path, "--out", dir + "/ws"),
                      "\(path):1:0: song features without a key column", "track_id", "title", "artist")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/manifest.json"))
    }
}

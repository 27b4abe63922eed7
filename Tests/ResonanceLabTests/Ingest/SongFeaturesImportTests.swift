import XCTest
@testable import ResonanceLab

/// Song features imported from the common audio-feature layouts: detection, rejects
/// and accounting, the genre BPM fallback, and the match to the plays of the same
/// import, with values worked by hand.
final class SongFeaturesImportTests: XCTestCase {
    static let kaggleHeader = ",track_id,artists,album_name,track_name,popularity,duration_ms,explicit,danceability,energy,key,"
        + "loudness,mode,speechiness,acousticness,instrumentalness,liveness,valence,tempo,time_signature,track_genre"
    static let spotifyAPIHeader = "danceability,energy,key,loudness,mode,speechiness,acousticness,instrumentalness,liveness,"
        + "valence,tempo,type,id,uri,track_href,analysis_url,duration_ms,time_signature"

    private func detect(_ header: String, name: String = "features.csv") throws -> SourceFormat {
        let path = try writeFixture(header + "\n", to: try makeTempDir() + "/" + name)
        return try SourceFormat.detect(path: path)
    }

    func testDetectsEachFeatureLayout() throws {
        XCTAssertEqual(try detect(Self.kaggleHeader, name: "dataset.csv"), .songFeatures)
        XCTAssertEqual(try detect(Self.spotifyAPIHeader), .songFeatures)
        XCTAssertEqual(try detect(SongFeatureRow.header.joined(separator: ",")), .songFeatures, "the canonical table itself")
        XCTAssertEqual(try detect("song_id,title,artist,bpm,energy,valence,genre"), .songFeatures)
        XCTAssertEqual(try detect("artist_name,track_name,tempo,energy,genre"), .songFeatures)
        XCTAssertEqual(try detect("uri,energy,valence"), .songFeatures, "energy and valence without tempo")
        // A heart-rate CSV with an energy column stays a heart-rate CSV.
        XCTAssertEqual(try detect("time,bpm,energy"), .genericCSV)
        XCTAssertEqual(try detect("time,bpm"), .genericCSV)
    }

    func testKeyColumnsOfEachLayout() throws {
        func columns(_ header: String) -> SongFeaturesCSV.Columns? {
            SongFeaturesCSV.Columns(header: header.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        }
        let kaggle = try XCTUnwrap(columns(Self.kaggleHeader))
        XCTAssertEqual([kaggle.id, kaggle.title, kaggle.artist, kaggle.bpm, kaggle.energy, kaggle.valence, kaggle.genre],
                       [1, 4, 2, 18, 9, 17, 20])
        let api = try XCTUnwrap(columns(Self.spotifyAPIHeader))
        XCTAssertEqual(api.id, 13, "uri before id")
        XCTAssertNil(api.title)
        let named = try XCTUnwrap(columns("Artist Name,Track Name,Tempo,Energy,Genre"))
        XCTAssertEqual([named.id, named.title, named.artist, named.bpm, named.genre], [nil, 1, 0, 2, 4])
        XCTAssertTrue(named.hasKey)
        XCTAssertFalse(try XCTUnwrap(columns("track_name,tempo,energy")).hasKey, "a title without an artist is no key")
        XCTAssertNil(columns("id,tempo"), "one feature column is not a features file")
    }

    func testFeaturesWithoutAKeyColumnIsOneLineNamingTheExpectedColumns() throws {
        let path = try writeFixture("tempo,energy,valence,genre\n120,0.5,0.5,pop\n", to: try makeTempDir() + "/features.csv")
        XCTAssertThrowsError(try SourceFormat.detect(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path):1:0: song features without a key column: expected a track id column "
                + "(song_id, track_id, spotify_track_uri, track_uri, uri, id, spotify_id) or a title column "
                + "(title, track_name, song_name, name, track, song) and an artist column (artist, artists, artist_name, artist_names)")
        }
        XCTAssertThrowsError(try importSources([path]))
    }

    /// Thirteen rows: six rejected with their column and reason, seven accepted (one a
    /// duplicate of `s1`, first wins), one BPM from the genre table, one without features.
    func testRejectsGenreFallbackAndAccounting() throws {
        let path = try writeFixture("""
            song_id,title,artist,bpm,energy,valence,genre
            s1,Calm,A,72,0.2,0.3,ambient
            s2,Fast,B,251,0.9,0.8,rock
            s3,Slow,C,29.9,0.5,0.5,pop
            s4,Loud,D,120,1.2,0.5,pop
            s5,Sad,E,100,0.5,-0.1,jazz
            s6,Odd,F,fast,0.5,0.5,pop
            s7,Edge,G,30,0,1,
            s8,Top,H,250,1,0,
            ,,I,100,0.5,0.5,pop
            s9,Genre,J,,0.4,0.6,Hip-Hop
            s10,Nothing,K,,,,
            s11,Unknown genre,L,,0.5,,polka
            s1,Calm again,A,60,0.1,0.1,ambient

            """, to: try makeTempDir() + "/lib/features.csv")
        let (ws, m) = try importSources([path])
        assertAccounting(m)
        let s = m.sources[0]
        XCTAssertEqual(s.format, "song-features")
        XCTAssertEqual([s.rowsRead, s.accepted, s.rejected, s.duplicates], [13, 7, 6, 1])
        let rejects = try ws.read(Reject.self)
        XCTAssertEqual(rejects.map(\.line), [3, 4, 5, 6, 7, 10])
        XCTAssertEqual(rejects.map(\.column), [4, 4, 5, 6, 4, 1])
        XCTAssertEqual(rejects.map(\.reason), ["bpm outside 30–250", "bpm outside 30–250", "energy outside 0–1",
                                               "valence outside 0–1", "unparsable bpm", "no song id and no title"])
        let rows = try ws.read(SongFeatureRow.self)
        XCTAssertEqual(rows.map(\.songId), ["s1", "s10", "s11", "s7", "s8", "s9"])
        let file = s.path
        XCTAssertEqual(rows[0], SongFeatureRow(songId: "s1", title: "Calm", artist: "A", bpm: 72, energy: 0.2, valence: 0.3,
                                               genre: "ambient", source: file), "the first row of s1 wins")
        XCTAssertEqual(rows[1], SongFeatureRow(songId: "s10", title: "Nothing", artist: "K", bpm: nil, energy: nil, valence: nil,
                                               genre: "", source: file))
        XCTAssertEqual(rows[2].bpm, nil, "polka is not in the genre table")
        XCTAssertEqual(rows[2].source, file)
        XCTAssertEqual([rows[3].bpm, rows[3].energy, rows[3].valence], [30, 0, 1], "the range ends are accepted")
        XCTAssertEqual(rows[5], SongFeatureRow(songId: "s9", title: "Genre", artist: "J", bpm: 90, energy: 0.4, valence: 0.6,
                                               genre: "Hip-Hop", source: "genre_bpm"))
        let f = try XCTUnwrap(m.songFeatures)
        XCTAssertEqual([f.rows, f.duplicates, f.genreBPM, f.withoutFeatures, f.unmatchedRows], [7, 1, 1, 1, 6])
        XCTAssertEqual([f.songsPlayed, f.songsWithFeatures, f.plays, f.playsCovered], [0, 0, 0, 0])
        XCTAssertNil(f.songMatchRate)
        XCTAssertNil(f.playMatchRate)
    }

    func testGenreTableOfTheSpecification() {
        let expected: [(String, Double)] = [("ambient", 70), ("classical", 80), ("jazz", 100), ("pop", 120), ("rock", 130),
                                            ("electronic", 128), ("hip-hop", 90), ("metal", 140)]
        for (genre, bpm) in expected { XCTAssertEqual(SongFeatureRow.bpm(ofGenre: genre), bpm, genre) }
        XCTAssertEqual(SongFeatureRow.bpm(ofGenre: "Hip Hop"), 90)
        XCTAssertEqual(SongFeatureRow.bpm(ofGenre: "hiphop"), 90, "the personas' spelling")
        XCTAssertEqual(SongFeatureRow.bpm(ofGenre: " ROCK "), 130)
        XCTAssertNil(SongFeatureRow.bpm(ofGenre: "folk"))
        XCTAssertNil(SongFeatureRow.bpm(ofGenre: ""))
    }

    func testNormalisedTitleAndArtist() {
        XCTAssertEqual(SongMatching.normalized("Café del Mar (feat. X)"), "cafe del mar")
        XCTAssertEqual(SongMatching.normalized("cafe del mar"), "cafe del mar")
        XCTAssertEqual(SongMatching.normalized("Señorita [Ft. Camila Cabello]"), "senorita")
        XCTAssertEqual(SongMatching.normalized("Heartbeats featuring Someone Else"), "heartbeats")
        XCTAssertEqual(SongMatching.normalized("Ride feat. A (Remix)"), "ride")
        XCTAssertEqual(SongMatching.normalized("Help! (Remastered 2009)"), "help remastered 2009", "only feat. parts go")
        XCTAssertEqual(SongMatching.normalized("  AC/DC  "), "acdc")
        XCTAssertEqual(SongMatching.normalized("Don't   Stop\tMe Now"), "dont stop me now")
        XCTAssertEqual(SongMatching.normalized("Björk"), "bjork")
        XCTAssertEqual(SongMatching.normalized("Feat. Start"), "feat start", "a title that begins with the word keeps it")
        XCTAssertEqual(SongMatching.normalized("Left (Unclosed feat. B"), "left")
        XCTAssertEqual(SongMatching.key(title: "Café del Mar (feat. X)", artist: "Energy 52;Other"),
                       SongMatching.key(title: "cafe del mar", artist: "ENERGY 52"))
        XCTAssertNotEqual(SongMatching.key(title: "Heartbeats", artist: "José González"),
                          SongMatching.key(title: "Heartbeats", artist: "The Knife"))
        XCTAssertNil(SongMatching.key(title: " (feat. X) ", artist: "A"), "no title left")
        XCTAssertEqual(SongMatching.trackId("spotify:track:4Ju2"), "4Ju2")
        XCTAssertEqual(SongMatching.trackId("https://open.spotify.com/track/4Ju2?si=abc"), "4Ju2")
        XCTAssertEqual(SongMatching.trackId(" 4Ju2 "), "4Ju2")
        XCTAssertNotEqual(SongMatching.trackId("4ju2"), "4Ju2", "ids are case-sensitive")
    }

    /// Spotify plays (River twice, Carey, Help!) and a features file: River by its bare
    /// track id, Carey by title + artist (its id differs), Help! without features, and
    /// a song never played. Songs 2 of 3 (1 by id, 1 by title + artist), plays 3 of 4.
    func testMatchRateOfPlaysAndFeatures() throws {
        let dir = try makeTempDir()
        func play(_ ts: String, _ title: String, _ uri: String) -> String {
            "{\"ts\": \"\(ts)\", \"ms_played\": 60000, \"master_metadata_track_name\": \"\(title)\", "
                + "\"master_metadata_album_artist_name\": \"\(title == "Help!" ? "The Beatles" : "Joni Mitchell")\", "
                + "\"spotify_track_uri\": \"\(uri)\", \"reason_end\": \"trackdone\", \"skipped\": false}"
        }
        let plays = try writeFixture("[\n" + [
            play("2023-06-01T14:01:00Z", "River", "spotify:track:4Ju2"),
            play("2023-06-01T14:02:00Z", "Carey", "spotify:track:7aa"),
            play("2023-06-01T14:03:00Z", "River", "spotify:track:4Ju2"),
            play("2023-06-01T14:04:00Z", "Help!", "spotify:track:1"),
        ].joined(separator: ",\n") + "\n]\n", to: dir + "/ana/Streaming_History_Audio_2023.json")
        let features = try writeFixture("""
            \(Self.kaggleHeader)
            0,4Ju2,Joni Mitchell,Blue,River,50,240000,False,0.4,0.25,0,-12,1,0.03,0.8,0,0.1,0.2,82.5,4,folk
            1,ZZZ,Joni Mitchell;Other,Blue,Carey (feat. Other),50,180000,False,0.6,0.55,0,-9,1,0.03,0.5,0,0.1,0.7,,4,pop
            2,x9,Someone,Else,Never Played,10,200000,False,0.5,0.5,0,-8,1,0.03,0.5,0,0.1,0.5,128,4,electronic

            """, to: dir + "/tracks.csv")
        let (ws, m) = try importSources([plays, features])
        assertAccounting(m)
        XCTAssertEqual(m.sources.map(\.format), ["spotify-extended", "song-features"])
        let f = try XCTUnwrap(m.songFeatures)
        XCTAssertEqual([f.songsPlayed, f.songsWithFeatures, f.matchedById, f.matchedByTitleArtist], [3, 2, 1, 1])
        XCTAssertEqual(try XCTUnwrap(f.songMatchRate), 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual([f.plays, f.playsCovered], [4, 3])
        XCTAssertEqual(f.playMatchRate, 0.75)
        XCTAssertEqual([f.rows, f.duplicates, f.genreBPM, f.withoutFeatures, f.unmatchedRows], [3, 0, 1, 0, 1])
        let rows = try ws.read(SongFeatureRow.self)
        let file = m.sources[1].path
        XCTAssertEqual(rows, [
            SongFeatureRow(songId: "spotify:track:4Ju2", title: "River", artist: "Joni Mitchell", bpm: 82.5, energy: 0.25,
                           valence: 0.2, genre: "folk", source: file),
            SongFeatureRow(songId: "spotify:track:7aa", title: "Carey", artist: "Joni Mitchell", bpm: 120, energy: 0.55,
                           valence: 0.7, genre: "pop", source: "genre_bpm"),
            SongFeatureRow(songId: "x9", title: "Never Played", artist: "Someone", bpm: 128, energy: 0.5, valence: 0.5,
                           genre: "electronic", source: file),
        ])
    }

    /// Last.fm plays carry no track id: "Café del Mar (feat. Energy 52)" by "Café del Mar"
    /// matches the features row "cafe del mar" by "Cafe del Mar;Energy 52"; a features
    /// file without plays' ids matches by title + artist only.
    func testLastFMPlaysMatchByNormalisedTitleAndArtist() throws {
        let dir = try makeTempDir()
        let scrobbles = try writeFixture("""
            artist,album,track,uts
            Café del Mar,Vol 1,Café del Mar (feat. Energy 52),1700000000
            Café del Mar,Vol 1,Café del Mar (feat. Energy 52),1700000300
            Unknown Band,X,Nothing Known,1700000600

            """, to: dir + "/P1/scrobbles.csv")
        let features = try writeFixture("""
            artist_name,track_name,tempo,energy,valence,genre
            Cafe del Mar;Energy 52,cafe del mar,87.917,0.461,0.715,ambient

            """, to: dir + "/features.csv")
        let (ws, m) = try importSources([scrobbles, features])
        let f = try XCTUnwrap(m.songFeatures)
        XCTAssertEqual([f.songsPlayed, f.songsWithFeatures, f.matchedById, f.matchedByTitleArtist, f.unmatchedRows],
                       [2, 1, 0, 1, 0])
        XCTAssertEqual([f.plays, f.playsCovered], [3, 2])
        let playId = try ws.read(Play.self).first { $0.artist == "Café del Mar" }?.songId
        let rows = try ws.read(SongFeatureRow.self)
        XCTAssertEqual(rows.map(\.songId), [try XCTUnwrap(playId)])
        XCTAssertEqual(rows.first?.title, "Café del Mar (feat. Energy 52)", "the play's title")
        XCTAssertEqual(rows.first?.bpm, 87.917)
    }

    /// An import without a features file writes no song_features.csv and no summary.
    func testNoFeaturesFileNoTable() throws {
        let path = try writeFixture("artist,track,uts\nA,B,1700000000\n", to: try makeTempDir() + "/P1/scrobbles.csv")
        let (ws, m) = try importSources([path])
        XCTAssertNil(m.songFeatures)
        XCTAssertNil(try ws.readIfPresent(SongFeatureRow.self))
    }
}

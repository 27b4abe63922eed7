import Foundation
import XCTest
import ResonanceLab

/// `subjects.csv` aliases as a user meets them: one person's Apple Health export and
/// Spotify history, in folders under two ids, import as one subject; an alias claimed by
/// two subjects stops the import with the file, line and column.
final class SubjectAliasCommandTests: XCTestCase {
    let health = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 14:00:00 +0000" endDate="2024-03-01 14:00:00 +0000" value="62"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 14:05:00 +0000" endDate="2024-03-01 14:05:00 +0000" value="64"/>
        </HealthData>

        """
    let spotify = """
        [
          {"endTime": "2024-03-01 14:03", "artistName": "Joni Mitchell", "trackName": "River", "msPlayed": 180000},
          {"endTime": "2024-03-01 14:07", "artistName": "Joni Mitchell", "trackName": "Carey", "msPlayed": 200000}
        ]

        """

    func makeStudy(subjects: String) throws -> String {
        let dir = try makeTempDir()
        try writeFixture(health, to: dir + "/study/alice/export.xml")
        try writeFixture(spotify, to: dir + "/study/alice_spotify/StreamingHistory0.json")
        try writeFixture(subjects, to: dir + "/people/subjects.csv")
        return dir
    }

    func testAppleHealthAndSpotifyOfOnePersonBecomeOneSubject() throws {
        let dir = try makeStudy(subjects: """
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source,aliases
            alice,1990,female,,,Europe/London,csv,alice_spotify; alice_fitbit

            """)
        // The subjects file comes last on the command line: its aliases still apply to every file.
        let r = try resonance("import", dir + "/study", dir + "/people/subjects.csv", "--out", dir + "/ws")
        XCTAssertEqual(r.status, ExitStatus.success, r.stderr)
        let hr = try String(contentsOfFile: dir + "/ws/hr.csv", encoding: .utf8)
        let plays = try String(contentsOfFile: dir + "/ws/plays.csv", encoding: .utf8)
        XCTAssertEqual(hr.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }, ["alice", "alice"])
        XCTAssertEqual(plays.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }, ["alice", "alice"])
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: dir + "/ws/manifest.json")))
        XCTAssertEqual(manifest.subjects.map(\.subject), ["alice"])
        // Only the alias whose rows were met is a merge; alice_fitbit named no file.
        XCTAssertEqual(manifest.subjects.first?.mergedAliases, ["alice_spotify"])
        let subjects = try String(contentsOfFile: dir + "/ws/subjects.csv", encoding: .utf8)
        XCTAssertEqual(subjects, """
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source,aliases
            alice,1990,female,,,Europe/London,csv,alice_fitbit;alice_spotify

            """)
    }

    func testAnAliasOfTwoSubjectsIsAnErrorNamingFileLineAndColumn() throws {
        let dir = try makeStudy(subjects: """
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source,aliases
            alice,1990,female,,,,csv,alice_spotify
            bob,1985,male,,,,csv,bob_fitbit;alice_spotify

            """)
        let r = try resonance("import", dir + "/study", dir + "/people/subjects.csv", "--out", dir + "/ws")
        assertFailure(r, "people/subjects.csv:3:8: alias 'alice_spotify' of subject 'bob' is already an alias of subject 'alice'")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ws/hr.csv"))
    }

    func testAnAliasThatIsASubjectIsAnError() throws {
        let dir = try makeStudy(subjects: """
            subject,birth_year,sex,height_cm,weight_kg,time_zone,source,aliases
            alice,1990,female,,,,csv,bob
            bob,1985,male,,,,csv,

            """)
        assertFailure(try resonance("import", dir + "/study", dir + "/people/subjects.csv", "--out", dir + "/ws"),
                      "people/subjects.csv:2:8: alias 'bob' of subject 'alice' is itself a subject")
    }
}

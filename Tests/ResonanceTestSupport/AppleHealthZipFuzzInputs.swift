import Foundation

/// Inputs the `format-apple-health-zip` fuzz target found (`make fuzz`): a one-entry
/// `export.zip` whose mutated deflate stream made ZIPFoundation 0.9.20's inflate
/// loop spin on empty chunks forever. Each decompresses past the 2774 bytes its
/// directory declares for `apple_health_export/export.xml`.
public enum AppleHealthZipFuzzInputs {
    /// The archives, base64.
    public static let timeouts: [String] = [
        // timeout-0d3ec67feb7aac2cb724b98de760f2a253e617c6
        "UEsDBBQAAAAIACuedl3yq/ssEwMAANYKAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1stVZrb9owFP3Or/Cy"
            + "L91UShKgQAVUEFIVtdCWR6tpmiY3uGA1sZHjdETix++ahJbwKGFiUiQSc699zvG5165ezjwXvRHhU85qmnGma4gwh48oG9e0"
            + "4eAqW9Yu65nql9adNfhxb6Nrgl05aWGJ0U8Ytm/tjt0drA6f2LMpFxLeyWmHnJ70iMPFaG5xIYiLJawzf+LilQdy3nAkfaMy"
            + "7Aeeh0U4t1zKqIPdKOXb929q5cZgcNvuJ5ZwOQQRZLUagwb62rMfhu2e3apnfkH8RlhNI+z3sK/VM6j6AQ29YTeA/0zdLGT1"
            + "fFY3kaFf6OpBWb2s61pOJXQIur6xJlhgRxJBfUmdQTgl7RFhkr5QItRcdy9NKuQE5KtU9KxuwKPtSWtS7vKx4tons5p2fZMY"
            + "uCIeAI8QRFogCekq7iHAMIUMk9MBaSF7AEVDPg+EQ7rYg/AnLJ2JhgJGZU1zeMBkzqNMQ44gi41Q4FckML5+kJCgGEuAfIkj"
            + "ubZFLYUCw4z2xsRyn5tqH5SuMI9gj2wmRYheSai4LQdvSPhOqMMVUI8zSWbyfZp4d3KROP9Lpt3siynYFzfZ55e2SoW2R8A3"
            + "bHwc0Pr+LTPzF8XKJuhi8V+M+IgFxc/UVdXd6nY/we75nyhtpPCZYWyCLpTPYqdtQ7Q02i1UpgpC1TYDCAwewgO/CdXh3xPR"
            + "oSyATvE89cC4MLekCnwECjqljhqdhTSp8s31/ErpkPxiOZmfP3B9w1wjUFidoJpLIdPB5daXZGopZyZ3/37CGUk4d6cBSika"
            + "TSlpktgA5YNK7RhI91u1dGFuQVrZgdSC/DEX60hdQqYNht3Qp/7WqtrZAPJ7ARrJmBjgB5RHNZBA0PDVF5zt20+rI3MwUnAw"
            + "D+bQ5OPAj+DHFxP0J/pd3k8GMZ2nzeFewBg0aQ2NArE4U1WX//gaRi1u0ZhT00zn+lWaixqO0fUlrKxuHP4Bp+GxgCAMd0k8"
            + "hhijoG+eTtGpHQNV72s3QATthljcm0LdMemvrgRTq1hiMSLGYUhlYWx0aEfFs+hf8bWvnsn8BVBLAQIeAxQAAAAIACuedl3y"
            + "q/ssEwMAANYKAAAeAAAAAAAAAAEAAACkgQAAAABhcHBsZV9oZWFsdGhfZXhwb3J0L2V4cG9ydC54bWxQSwUGAAAAAAEAAQBM"
            + "AAAATwMAAAAA",
        // timeout-63e03ffcea51d4deeaeb7ba6fa1aae35ff98b459
        "UEsDBBQAAAAIACuedl3yq/ssEwMAANYKAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1stVZrb9owFP3Or/Cy"
            + "L91UShKgQAVUEFIVtdCWR6tpmiY3uGA1sZHjdETix++ahJbwKGFiUiQSc699zvG5165ezjwXvRHhU85qmnGma4gwh48oG9e0"
            + "4eAqW/Yu65nql9adNfhxb6Nrgl05aWGJ0U8Ytm/tjt0drA6f2LMpFxLeyWmHnJ70iMPFaG5xIYiLJawzf+LilQdy3nAkfaMy"
            + "7Aeeh0U4t1zKqIPdKOXb929q5cZgcNvuJ5ZwOAQRZLUagwb62rMfhu2e3apnfkH8RlhNI+z3sK/VM6j6AQ29YTeA/0zdLGT1"
            + "fFY3kaFf6OpBWb2s61pOJXQIur6xJlhgRxJBfUmdQTgl7RFhkr5QItRcdy9NKuQE5KtU9KxuwKPtSWtS7vKx4tons5p2fZMY"
            + "uCIeAI8QRFogCekq7iHAMIUMk9MBaSF7AEVDPg+EQ7rYg/AnLJ2JhgJGZU1zeMBkzqNMQ44gi41Q4FckMJB+vpCgGEuAfIkj"
            + "ubZFLYUCw4z2xsRyn5tqH5SuEo9gj2wmRYheSai4LQdvSPhOqMMVUIszSWbyfZp4d3KROP9Lpt3siynYFzfZ55e2SoW2R8A3"
            + "bHwc0Pr+LTPzF8XKJuhi8V+M+IgFxc/UVdXd6nY/we75nyhtpPCZYWyCLpTPYqdtQ7Qy2i1UpgpC1TYDCAwewgO/CdXh3xPR"
            + "oSyATvE89cC4MLekCnwECjqljhqdhTSp8s31/ErpkPxiOZmfP3B9w1ydUKBLWJojIdPB5daXZGopZyZ3/37CGUk4d6cBSika"
            + "TSlpktgA5YNK7RhI91u1dGFuQVrZgdSC/DEX60hdQqYNht3Qp/7WqtrZAPJ7ARrJmBjgB5RHNZBA0PDVF5zt20+rI3MwUnAw"
            + "D+bQ5OPAj+DHFxP0J/pd3k8GMZ2nzeFewBg0aQ2NArE4U1WX//gaRi1u0ZhT00zn+lWXixqO0fUlrKxuHP4Bp+GxgCAMd0k8"
            + "hhijoG+eTtGpHQNV72s3QATthljcm0LdMemvrgRTq1hiMyLGYTMajIygz0fFs+hf8bWvnsn8BVBLAQIeAxQAAAAIACuedl3y"
            + "q/ssEwMAANYKAAAeAAAAAAAAAAEAAACkgQAAAABhcHBsZV9oZWFsdGhfZXhwb3J0L2V4cG9ydC54bWxQSwUGAAAAAAEAAQBM"
            + "AAAATwMAAAAA",
        // timeout-f8c0a6cbd517094e3882504f3d9eeb37e2b1d49f
        "UEsDBBQAAAAIAC2edl3yq/ssEwMAANYKAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1stVZrb9owFP3Or/Cy"
            + "L91UShKgQAVUEFIVtdCWR6tpmiY3uGA1sZHjdETix++ahJbwKGFiUiQSc699zvG5165ezjwXvRHhU85qmnGma4gwh48oG9e0"
            + "4eAqW9Yu65nql9adNfhxb6Nrgl05aWGJ0U8Ytm/tjt0drA6f2LMpFxLeyWmHnJ70iMPFaG5xIYiLJawzf+LilQdy3nAkfaMy"
            + "7Aeeh0U4t1zKqIPdKOXb929q5cZgcNvuJ5ZwOQQRZLUagwb62rMfhu2e3apnfkH8RlhNI+z3sK/VM6j6AQ29YTeA/0zdLGT1"
            + "fFY3kaFf6OpBWb2s61pOJXQIur6xJlhgRxJBfUmdQTgl7RFhkr5QItRcdy9NKuQE5KtU9KxuwKPtSWtS7vKx4tons5p2fZMY"
            + "uCIeAI8QRFogCekq7iHAMIUMk9MBaSF7AEVDPg+EQ7rYg/AnLJ2JhgJGZU1zeMBzdZ5uO44gi41Q4FckMJB+vpCgGEuAfIkj"
            + "ubZFLYUCw4z2xsRyn5tqH5SuEo9gj2wmRYheSai4LSdvSPhOqMMVUIsySWbyfZp4d3KROP9Lpt3siynYFzfZ55e2SoW2R8A3"
            + "bHwc0Pr+LTPzF8XKJuhi8V+M+IgFxc/UVdXd6nY/we75nyhtpPCZYWyCLpTPYqdtQ7Q02i1UpgpC1TYDCAwewgO/CdXh3xPR"
            + "oSyATvE89cC4MLekCnwECjqljhqdhTSp8s31/ErpkPxiOZmfP3B9w1wjUFidoJpLIdPB5daXZGopZyZ3/37CGUs4d6cBSika"
            + "TSlpktgA5YNK7RhI91u1dGFuQVrZgdSC/DEX60hdQqYNht3Qp/7WqtrZAPJ7ARrJmBjgB5RHNZBA0PDVF5zt20+rI3MwUnAw"
            + "D+bQ5OPAj+DHFxP0J/pd3k8GMZ2nzeFewBg0aQ2NArE4U1WX//gaRi1u0ZhT00zn+lWaixqO0fUlrKxuHP4Bp+GxgCAMd0k8"
            + "hhijoG+eTtGpHQNV72s3QATthljcm0LdMemvrgRTq1hiMyLGYTMQjIygz0cos+hf8bWvnsn8BVBLAQIeAxQAAAAIAC2edl3y"
            + "q/ssEwMAANYKAAAeAAAAAAAAAAEAAACkgQAAAABhcHBsZV9oZWFsdGhfZXhwb3J0L2V4cG9ydC54bWxQSwUGAAAAAAEAAQBM"
            + "AAAATwMAAAAA",
    ]

    /// Decoded bytes of `timeouts[index]`.
    public static func archive(_ index: Int) -> Data { Data(base64Encoded: timeouts[index])! }
}
